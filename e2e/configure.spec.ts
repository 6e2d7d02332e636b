import fs from 'node:fs/promises'
import { expect, test, type Page } from '@playwright/test'
import { ADMIN } from '../test/support/start-server'
import {
  countModelPixels,
  createConfigurator,
  expectAccessible,
  findDemo,
  SHELF,
  stlSize,
  waitForModelDrawn,
} from './fixtures'

async function configureHeight(page: Page) {
  const viewer = page.getByTestId('model-viewer')
  const first = await waitForModelDrawn(viewer)
  await expect(page.getByTestId('fact-height')).toHaveText('40.0 mm')
  expect(await countModelPixels(page, viewer)).toBeGreaterThan(2000)

  // Ten steps of 0.5 mm with the keyboard: 40 -> 45.
  const slider = page.getByRole('slider', { name: 'Height' })
  const updated = page.waitForResponse(
    (response) => response.url().endsWith('/parameters') && response.request().method() === 'PUT',
  )
  await slider.focus()
  for (let step = 0; step < 10; step++) await slider.press('ArrowRight')
  const released = Date.now()
  // No "Building..." asked for here: a model prefetched while the keys were pressed may come too soon to see it.
  expect((await updated).status()).toBe(200)
  const answeredAfter = Date.now() - released
  await waitForModelDrawn(viewer, first)
  const drawnAfter = Date.now() - released
  await expect(page.getByRole('spinbutton', { name: 'Height' })).toHaveValue('45')
  await expect(page.getByTestId('fact-height')).toHaveText('45.0 mm')
  await expect(page.getByText('Building...')).toBeHidden()
  expect(await countModelPixels(page, viewer)).toBeGreaterThan(2000)

  const downloading = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Download STL' }).click()
  const stl = await fs.readFile(await (await downloading).path())
  const [, , height] = stlSize(stl)
  expect(height).toBeCloseTo(45, 1)
  return { answeredAfter, drawnAfter }
}

test('a customer shapes a demo product on the embed page and downloads it', async ({ page, request }) => {
  const { applicationKey } = await findDemo(request, 'Box with lid')
  await page.goto(`/embed/${applicationKey}`)
  await expect(page.getByRole('heading', { name: 'Box with lid' })).toBeVisible()
  const { answeredAfter, drawnAfter } = await configureHeight(page)
  const figures = `PUT answered after ${answeredAfter} ms, new model drawn after ${drawnAfter} ms`
  test.info().annotations.push({ type: 'slider release', description: figures })
  console.log(`slider release: ${figures}`)

  // The shareable link reopens the same values before the first model is shown.
  const link = await page.getByRole('textbox', { name: 'Shareable link' }).inputValue()
  expect(new URL(link).searchParams.get('height')).toBe('45')
  const reopened = await page.context().newPage()
  await reopened.goto(link)
  await waitForModelDrawn(reopened.getByTestId('model-viewer'))
  await expect(reopened.getByTestId('fact-height')).toHaveText('45.0 mm')
  await expect(reopened.getByRole('slider', { name: 'Height' })).toHaveValue('45')

  await reopened.getByRole('button', { name: 'Reset to defaults' }).click()
  await expect(reopened.getByTestId('fact-height')).toHaveText('40.0 mm')
})

test('a value the model refuses is named next to its control', async ({ page, request }) => {
  const { applicationKey } = await findDemo(request, 'Box with lid')
  await page.goto(`/embed/${applicationKey}`)
  await waitForModelDrawn(page.getByTestId('model-viewer'))
  const width = page.getByRole('spinbutton', { name: 'Width' })
  await width.fill('500')
  await expect(page.getByText('must be at most 200')).toBeVisible()
  await expect(width).toHaveAttribute('aria-invalid', 'true')
  await width.fill('120')
  await expect(page.getByText('must be at most 200')).toBeHidden()
  await expect(page.getByTestId('fact-width')).toHaveText('250.0 mm')
})

test('the owner configures on /configure after signing in; signed out it leads to sign-in', async ({
  page,
  request,
}) => {
  const { configuratorId } = await findDemo(request, 'Box with lid')
  const response = await page.goto(`/configure/${configuratorId}`)
  expect(new URL(page.url()).pathname).toBe('/signin')
  expect(new URL(page.url()).searchParams.get('next')).toBe(`/configure/${configuratorId}`)
  expect(response?.status()).toBeLessThan(500)

  expect((await page.request.post('/api/auth/session', { data: ADMIN })).status()).toBe(200)
  await page.goto(`/configure/${configuratorId}`)
  await expect(page.getByRole('heading', { name: 'Box with lid' })).toBeVisible()
  await configureHeight(page)
})

test('dragging a slider prefetches where it may stop, and letting go sets where it stopped', async ({
  page,
  request,
}) => {
  const { applicationKey } = await findDemo(request, 'Box with lid')
  await page.goto(`/embed/${applicationKey}`)
  const viewer = page.getByTestId('model-viewer')
  const first = await waitForModelDrawn(viewer)
  const slider = page.getByRole('slider', { name: 'Width' })
  // A pause of 250 ms sends what changed mid-drag (a slow machine pauses too); letting go sends the rest.
  const sets: unknown[] = []
  page.on(
    'request',
    (sent) => void (sent.url().endsWith('/parameters') && sent.method() === 'PUT' && sets.push(sent.postDataJSON())),
  )
  const box = (await slider.boundingBox())!
  // The thumb of 80 on [30, 200], then a slow drag to the right.
  const y = box.y + box.height / 2
  await page.mouse.move(box.x + box.width * ((80 - 30) / 170), y)
  await page.mouse.down()
  const prefetched = page.waitForRequest((sent) => sent.url().endsWith('/prefetch'))
  for (let step = 1; step <= 12; step++) {
    await page.mouse.move(box.x + box.width * ((80 - 30) / 170) + step * 4, y)
    await page.waitForTimeout(20)
  }
  const prefetch = await prefetched
  expect((await prefetch.response())?.status()).toBe(202)
  const { candidates } = prefetch.postDataJSON() as { candidates: Record<string, { value: number }>[] }
  expect(candidates.length).toBeGreaterThan(0)
  // Where the thumb was, steps onward and one back: whole millimetres, from where the drag began.
  for (const candidate of candidates) {
    expect(Object.keys(candidate)).toEqual(['width'])
    expect(
      Number.isInteger(candidate.width!.value) && candidate.width!.value >= 80 && candidate.width!.value <= 200,
    ).toBe(true)
  }

  await page.mouse.up()
  const stoppedAt = Number(await slider.inputValue())
  expect(stoppedAt).toBeGreaterThan(80)
  await expect.poll(() => sets.at(-1)).toEqual({ width: { value: stoppedAt } })
  await waitForModelDrawn(viewer, first)
  // The lid lies 10 mm beside the box, as wide as it, and the figures say so.
  await expect(page.getByTestId('fact-width')).toHaveText(`${(2 * stoppedAt + 10).toFixed(1)} mm`)
  await expect(
    page.getByText('Width, depth and height measure its 2 pieces together, as they lie on the print bed.'),
  ).toBeVisible()
})

test('the customer sees weight and price of the final model, and what would not print well', async ({
  page,
  request,
}) => {
  const { applicationKey } = await findDemo(request, 'Name tag')
  await page.goto(`/embed/${applicationKey}`)
  await waitForModelDrawn(page.getByTestId('model-viewer'))
  // The preview's figures come first, marked; the final quality's replace them.
  await expect(page.getByTestId('fact-weight')).toHaveText(/^\d+\.\d g$/, { timeout: 30_000 })
  await expect(page.getByTestId('fact-price')).toHaveText(/^€\d+\.\d\d$/)
  // The slicer's estimate of the print, as PrusaSlicer sliced the final model.
  await expect(page.getByTestId('fact-print')).toHaveText(/^≈ (\d+ h )?\d+ min$/)
  await expect(page.getByText('estimate from the preview')).toBeHidden()
  await expect(page.getByText("the slicer's print time and filament are on their way")).toBeHidden()
  await expect(page.getByTestId('print-problems')).toBeHidden()

  // Letters 0.4 mm high are thinner than the demo's 0.5 mm minimum (its strokes are 0.7 mm and more).
  const relief = page.getByRole('spinbutton', { name: 'Relief' })
  await relief.fill('0.4')
  await relief.press('Enter')
  await expect(page.getByTestId('print-problems')).toContainText(
    /Letters has walls down to 0\.4 mm, thinner than the 0\.5 mm minimum/,
    { timeout: 30_000 },
  )
})

test(
  "values the designer's assert refuses are never shown as the product: the message in words, the last model marked",
  { tag: '@phone' },
  async ({ page, request }) => {
    const { applicationKey } = await createConfigurator(request, `Shelf ${test.info().testId}`, SHELF)
    await page.goto(`/embed/${applicationKey}`)
    const viewer = page.getByTestId('model-viewer')
    await waitForModelDrawn(viewer)
    await expect(page.getByTestId('fact-depth')).toHaveText('80.0 mm')
    await expect(page.getByText('Width, depth and height measure the product.')).toBeVisible()

    const depth = page.getByRole('spinbutton', { name: 'Depth' })
    const stored = page.waitForRequest((sent) => sent.method() === 'PUT' && sent.url().endsWith('/parameters'))
    await depth.fill('200')
    await depth.press('Enter')
    // The customer's own credentials: the model and a snapshot of these values are refused, naming the log.
    const { authorization, 'x-api-key': apiKey } = (await stored).headers()
    const sessionPath = new URL((await stored).url()).pathname.replace(/\/parameters$/, '')
    const asCustomer = { headers: { authorization: authorization!, 'x-api-key': apiKey! } }
    await expect
      .poll(async () => (await page.request.get(`${sessionPath}/model`, asCustomer)).status(), { timeout: 30_000 })
      .toBe(409)
    const snapshot = await page.request.post(`${sessionPath}/snapshots`, asCustomer)
    expect(snapshot.status()).toBe(409)
    expect(((await snapshot.json()) as { error: { message: string } }).error.message).toContain(`${sessionPath}/log`)
    await expect(page.getByTestId('build-failure')).toHaveText(
      'These values cannot be made: The shelf must be at least as wide as it is deep',
    )
    await expect(viewer).toHaveAttribute('data-state', 'not-built')
    await expect(page.getByTestId('viewer-problems')).toHaveText(
      'Shown: the last model that could be made, not the values you set.',
    )
    expect(await countModelPixels(page, viewer)).toBeGreaterThan(2000)
    await expect(page.locator('body')).not.toContainText(/ERROR:|TRACE:|\/api\//)
    await expect(page.getByRole('link', { name: 'Download STL' })).toHaveCount(0)
    await expect(page.getByTestId('fact-depth')).toHaveText('≈ 80.0 mm')
    await expect(
      page.getByText('≈ the figures of the last model that could be made, not of the values you set.'),
    ).toBeVisible()
    await expectAccessible(page)
    await page.screenshot({ path: test.info().outputPath('not-built.png') })
  },
)

test(
  'while a slow model builds, the figures on screen are marked as the last model’s, the time shows, and Cancel goes back',
  { tag: '@phone' },
  async ({ page, request }) => {
    // About five seconds a build: 600,000 steps of a function before the cube; four times as long
    // at the size the test sets, so that the screenshot and Cancel's click land while it builds
    // on a busy machine. The test's own source, so no build of another run (the other screen
    // size) is in the cache.
    const slow =
      `size = 20; // [10:1:40]\nfunction spin(n, ` +
      `total = 0) = n == 0 ? total : spin(n - 1, ` +
      `total + size);\ncube([size, size, spin(size == 30 ? 2400000 : 600000) ` +
      `> 0 ? 10 : 1]); // ${test.info().testId}\n`
    // Its preparation (defaults, test drive) and first model take several builds: longer than most, more on a busy machine.
    test.slow()
    const { applicationKey } = await createConfigurator(request, `Slow cube ${test.info().testId}`, slow)
    await page.goto(`/embed/${applicationKey}`)
    const viewer = page.getByTestId('model-viewer')
    await waitForModelDrawn(viewer, 0, 90_000)
    await expect(page.getByTestId('fact-width')).toHaveText('20.0 mm', { timeout: 60_000 })

    const size = page.getByRole('spinbutton', { name: 'Size' })
    await size.fill('30')
    await size.press('Enter')
    await expect(page.getByRole('status').filter({ hasText: /^Building\.\.\. \d+ s$/ })).toBeVisible()
    await expect(page.getByTestId('model-facts')).toHaveAttribute('data-stale', 'true')
    await expect(page.getByTestId('fact-width')).toHaveText('≈ 20.0 mm')
    await page.screenshot({ path: test.info().outputPath('building.png') })

    await page.getByRole('button', { name: 'Cancel' }).click()
    await expect(size).toHaveValue('20')
    await expect(page.getByText('Building...')).toBeHidden({ timeout: 30_000 })
    await expect(page.getByTestId('fact-width')).toHaveText('20.0 mm')
    await expect(page.getByTestId('model-facts')).not.toHaveAttribute('data-stale')
  },
)

test(
  'the conventions customers know: the slider keeps the model’s value, a length counter, the active preset, undo, reset view',
  { tag: '@phone' },
  async ({ page, request }) => {
    const { applicationKey: boxKey } = await findDemo(request, 'Box with lid')
    await page.goto(`/embed/${boxKey}`)
    const viewer = page.getByTestId('model-viewer')
    const first = await waitForModelDrawn(viewer)
    const width = page.getByRole('spinbutton', { name: 'Width' })
    const slider = page.getByRole('slider', { name: 'Width' })

    // A value out of range is the field's alone: the slider stays at the model's 80.
    await width.fill('500')
    await expect(page.getByText('must be at most 200')).toBeVisible()
    await expect(slider).toHaveValue('80')

    // Undo goes back to the values before the last change, by button and by Ctrl+Z.
    await width.fill('100')
    await width.press('Enter')
    const second = await waitForModelDrawn(viewer, first)
    await expect(slider).toHaveValue('100')
    await page.getByRole('button', { name: 'Undo' }).click()
    const third = await waitForModelDrawn(viewer, second)
    await expect(width).toHaveValue('80')
    await width.fill('120')
    await width.press('Enter')
    await waitForModelDrawn(viewer, third)
    await page.getByRole('heading').first().click()
    await page.keyboard.press('Control+z')
    await expect(width).toHaveValue('80')

    await page.getByRole('button', { name: 'Reset view' }).click()
    await expect(viewer).toHaveAttribute('data-state', 'ready')

    // A text with a length limit counts its characters; an applied preset is the one shown.
    const { applicationKey: tagKey } = await findDemo(request, 'Name tag')
    await page.goto(`/embed/${tagKey}`)
    await waitForModelDrawn(page.getByTestId('model-viewer'))
    await expect(page.getByTestId('length-Name')).toHaveText('8/20')
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Ada')
    await expect(page.getByTestId('length-Name')).toHaveText('3/20')
    await page.getByLabel('Preset').selectOption('Keyring')
    await expect(page.getByLabel('Preset')).toHaveValue('Keyring')
    await page.screenshot({ path: test.info().outputPath('conventions.png') })
  },
)
