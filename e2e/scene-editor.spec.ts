import { expect, test } from '@playwright/test'
import { ADMIN } from '../test/support/start-server'
import { logIn, countModelPixels, waitForModelDrawn, waitForSceneDrawn } from './fixtures'

const FILES = {
  'configurator/main.scad': 'color("red") cube([20, 20, 20], center = true);\n',
  'renderer/shaders/plain.vert':
    'void main() { gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0); }\n',
  'renderer/shaders/tint.frag': 'uniform vec3 tint;\nvoid main() { gl_FragColor = vec4(tint, 1.0); }\n',
}
const GREEN: [number, number, number] = [0, 255, 0]

test('a designer paints a part with a shader material, previews it live and saves it', async ({ page, request }) => {
  const headers = { authorization: `Bearer ${await logIn(request)}` }
  const created = await request.post('/api/configurators', {
    headers,
    data: { name: `Tinted cube ${test.info().testId}`, mainFile: 'main.scad' },
  })
  expect(created.status()).toBe(201)
  const { UUID: configuratorId } = (await created.json()) as { UUID: string }
  for (const [path, text] of Object.entries(FILES)) {
    expect(
      (await request.put(`/api/configurators/${configuratorId}/files/${path}`, { headers, data: text })).status(),
    ).toBe(202)
  }

  expect((await page.request.post('/api/auth/session', { data: ADMIN })).status()).toBe(200)
  await page.goto(`/studio/configurators/${configuratorId}/scene`)
  const viewer = page.getByTestId('model-viewer')
  await waitForModelDrawn(viewer)
  const drawn = Number(await viewer.getAttribute('data-draw-count'))
  expect(await countModelPixels(page, viewer, GREEN)).toBeLessThan(50)

  await page.getByRole('button', { name: 'Add material for part 0' }).click()
  await expect(page.getByLabel('Vertex shader of part 0')).toHaveValue('shaders/plain.vert')
  await expect(page.getByLabel('Fragment shader of part 0')).toHaveValue('shaders/tint.frag')
  await page.getByRole('button', { name: 'Add uniform' }).click()
  await page.getByLabel('Uniform name').fill('tint')
  await page.getByLabel('Colour of tint').fill('#00ff00')
  await waitForSceneDrawn(viewer, drawn)
  await expect.poll(() => countModelPixels(page, viewer, GREEN)).toBeGreaterThan(2000)

  // A name that is no GLSL identifier is refused by the API, with its message shown.
  await page.getByLabel('Uniform name').fill('1tint')
  await page.getByRole('button', { name: 'Save scene' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'GLSL identifier' })).toBeVisible()

  await page.getByLabel('Uniform name').fill('tint')
  await page.getByRole('button', { name: 'Save scene' }).click()
  await expect(page.getByText('Saved: customers see this scene')).toBeVisible()

  // A new session (a customer's next visit) starts from the saved scene.
  const session = (await (await request.post('/api/configsessions', { headers, data: { configuratorId } })).json()) as {
    id: string
    renderSessions: { rendererType: string; sessionId: string }[]
  }
  const rendererId = session.renderSessions.find((renderer) => renderer.rendererType === 'webgl')?.sessionId
  const scene = (await (
    await request.get(`/api/configsessions/${session.id}/renderers/${rendererId}/scene`, { headers })
  ).json()) as unknown
  expect(scene).toMatchObject({
    materials: {
      '0': {
        vertexShader: 'shaders/plain.vert',
        fragmentShader: 'shaders/tint.frag',
        uniforms: { tint: { type: 'color', value: '#00ff00' } },
      },
    },
  })
})
