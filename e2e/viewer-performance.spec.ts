import { expect, test } from '@playwright/test'
import { ADMIN } from '../test/support/start-server'
import { logIn, countModelPixels, waitForModelDrawn } from './fixtures'

// $fn = 450: 225 rings of 450 vertices, about 200,000 triangles.
const SPHERE = 'sphere(r = 30, $fn = 450);\n'

test('a 200k-triangle model stays interactive on the CPU renderer', async ({ page, request }) => {
  test.setTimeout(240_000)
  const headers = { authorization: `Bearer ${await logIn(request)}` }
  const created = await request.post('/api/configurators', {
    headers,
    data: { name: `Dense sphere ${test.info().testId}`, mainFile: 'main.scad' },
  })
  const { UUID: configuratorId } = (await created.json()) as { UUID: string }
  expect(
    (
      await request.put(`/api/configurators/${configuratorId}/files/configurator/main.scad`, { headers, data: SPHERE })
    ).status(),
  ).toBe(202)

  expect((await page.request.post('/api/auth/session', { data: ADMIN })).status()).toBe(200)
  await page.goto(`/configure/${configuratorId}`)
  const viewer = page.getByTestId('model-viewer')
  const opened = Date.now()
  await waitForModelDrawn(viewer, 0, 150_000)
  const firstDrawMs = Date.now() - opened
  expect(await countModelPixels(page, viewer)).toBeGreaterThan(2000)

  // Frame intervals while orbiting with the mouse: each move asks for one frame of the full model.
  const box = await viewer.boundingBox()
  if (!box) throw new Error('no viewer box')
  await page.evaluate(() => {
    const times: number[] = []
    const record = (time: number) => {
      times.push(time)
      if (times.length < 10_000) requestAnimationFrame(record)
    }
    requestAnimationFrame(record)
    Object.assign(window, { frameTimes: times })
  })
  const before = await viewer.screenshot()
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await page.mouse.down()
  const started = Date.now()
  for (let step = 1; step <= 30; step++)
    await page.mouse.move(box.x + box.width / 2 + step * 8, box.y + box.height / 2 + step * 2)
  await page.mouse.up()
  const dragMs = Date.now() - started
  const intervals = await page.evaluate(() => {
    const times = (window as unknown as { frameTimes: number[] }).frameTimes
    return times.slice(1).map((time, index) => time - times[index]!)
  })
  intervals.sort((a, b) => a - b)
  const median = intervals[Math.floor(intervals.length / 2)] ?? Infinity
  const worst = intervals.at(-1) ?? Infinity
  const figures =
    `first model drawn ${firstDrawMs} ms ` +
    `after opening; 30 moves in ${dragMs} ms; ` +
    `frame interval median ${median.toFixed(0)} ` +
    `ms, worst ${worst.toFixed(0)} ms`
  test.info().annotations.push({ type: '200k triangles, orbit drag', description: figures })
  console.log(`200k triangles, orbit drag: ${figures}`)
  expect(Buffer.compare(before, await viewer.screenshot())).not.toBe(0)
  // Back at full resolution after orbiting, the model is still drawn.
  await expect.poll(() => page.evaluate(() => document.querySelector('canvas')?.width)).toBe(Math.round(box.width))
  expect(await countModelPixels(page, viewer)).toBeGreaterThan(2000)
  expect(median).toBeLessThan(250)
  expect(dragMs / 30).toBeLessThan(500)
})
