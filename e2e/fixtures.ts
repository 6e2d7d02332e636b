import AxeBuilder from '@axe-core/playwright'
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test'
import { ADMIN } from '../test/support/start-server'

/** A bearer token for seeding data through the API. */
export async function logIn(
  request: APIRequestContext,
  credentials: { email: string; password: string } = ADMIN,
): Promise<string> {
  const response = await request.post('/api/auth/login', { data: credentials })
  expect(response.status()).toBe(200)
  return ((await response.json()) as { accessToken: string }).accessToken
}

/** Signs in on the sign-in form the page shows (the admin by default). */
export async function signIn(page: Page, { email, password }: { email: string; password: string } = ADMIN) {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

/** axe-core finds nothing on the page as it is now, once its transitions have ended (a button just enabled is caught mid-way otherwise). */
export async function expectAccessible(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  )
  const { violations } = await new AxeBuilder({ page }).analyze()
  expect(
    violations.map(
      ({ id, nodes }) =>
        `${id}: ${nodes.map((node) => `${node.target.join(' ')} (${node.failureSummary ?? ''})`).join(', ')}`,
    ),
  ).toEqual([])
}

/** The seeded demo configurator of that name and the key of its localhost application. */
export async function findDemo(
  request: APIRequestContext,
  name: string,
): Promise<{ configuratorId: string; applicationKey: string; token: string }> {
  const token = await logIn(request)
  const headers = { authorization: `Bearer ${token}` }
  const configurators = (await (await request.get('/api/configurators', { headers })).json()) as {
    UUID?: string
    id?: string
    name: string
  }[]
  const configurator = configurators.find((candidate) => candidate.name === name)
  const configuratorId = configurator?.UUID ?? configurator?.id
  if (!configuratorId) throw new Error(`no demo configurator ${name}`)
  const applications = (await (
    await request.get(`/api/configurators/${configuratorId}/applications`, { headers })
  ).json()) as { key: string; domain: string }[]
  const application = applications.find((candidate) => candidate.domain === 'localhost')
  if (!application) throw new Error(`no localhost application for ${name}`)
  return { configuratorId, applicationKey: application.key, token }
}

/** A shelf whose designer refuses a depth over its width with `assert()`. */
export const SHELF =
  'width = 120; // [60:10:300]\ndepth = ' +
  '80; // [60:10:300]\ncube([width, depth, ' +
  '10]);\nassert(depth <= width, "The shelf ' +
  'must be at least as wide as it is deep");\n'

/** A configurator of the admin's with this model, and the key of its localhost application. */
export async function createConfigurator(
  request: APIRequestContext,
  name: string,
  source: string,
): Promise<{ configuratorId: string; applicationKey: string }> {
  const headers = { authorization: `Bearer ${await logIn(request)}` }
  const created = await request.post('/api/configurators', { headers, data: { name, mainFile: 'main.scad' } })
  const { UUID: configuratorId } = (await created.json()) as { UUID: string }
  expect(
    (
      await request.put(`/api/configurators/${configuratorId}/files/configurator/main.scad`, { headers, data: source })
    ).status(),
  ).toBe(202)
  const registered = await request.post(`/api/configurators/${configuratorId}/applications`, {
    headers,
    data: { name: 'Shop', domain: 'localhost' },
  })
  const { UUID: applicationId } = (await registered.json()) as { UUID: string }
  const { key } = (await (await request.get(`/api/applications/${applicationId}`, { headers })).json()) as {
    key: string
  }
  return { configuratorId, applicationKey: key }
}

/** Waits until the viewer has drawn a model newer than `after` and answers its version. */
export async function waitForModelDrawn(viewer: Locator, after = 0, timeout?: number): Promise<number> {
  return waitForDrawn(viewer, 'data-model-version', after, timeout)
}

/** Waits until the viewer has drawn a newly built scene (a new model or new scene settings). */
export async function waitForSceneDrawn(viewer: Locator, after: number): Promise<number> {
  return waitForDrawn(viewer, 'data-draw-count', after)
}

async function waitForDrawn(viewer: Locator, attribute: string, after: number, timeout?: number): Promise<number> {
  await expect(viewer).toHaveAttribute('data-state', 'ready', { timeout })
  await expect.poll(async () => Number(await viewer.getAttribute(attribute)), { timeout }).toBeGreaterThan(after)
  return Number(await viewer.getAttribute(attribute))
}

/**
 * Pixels of the viewer's screenshot that differ clearly from the background, or, given a
 * colour, that are close to it. The background is a vertical gradient, so each pixel is
 * compared with the leftmost pixel of its row.
 */
export async function countModelPixels(page: Page, viewer: Locator, near?: [number, number, number]): Promise<number> {
  const png = (await viewer.screenshot()).toString('base64')
  return page.evaluate(
    async ({ base64, near }) => {
      const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0))
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }))
      const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')
      if (!context) throw new Error('no 2d context')
      context.drawImage(bitmap, 0, 0)
      const { data, width, height } = context.getImageData(0, 0, bitmap.width, bitmap.height)
      let count = 0
      for (let y = 0; y < height; y++) {
        const row = y * width * 4
        for (let x = 1; x < width; x++) {
          const index = row + x * 4
          const [r, g, b] = near ?? [data[row]!, data[row + 1]!, data[row + 2]!]
          const distance = Math.abs(data[index]! - r) + Math.abs(data[index + 1]! - g) + Math.abs(data[index + 2]! - b)
          if (near ? distance < 90 : distance > 40) count++
        }
      }
      return count
    },
    { base64: png, near },
  )
}

/** The extent along each axis of a binary STL. */
export function stlSize(stl: Buffer): [number, number, number] {
  const triangles = stl.readUInt32LE(80)
  expect(stl.byteLength).toBe(84 + triangles * 50)
  const min = [Infinity, Infinity, Infinity]
  const max = [-Infinity, -Infinity, -Infinity]
  for (let triangle = 0; triangle < triangles; triangle++) {
    for (let vertex = 0; vertex < 3; vertex++) {
      for (let axis = 0; axis < 3; axis++) {
        const value = stl.readFloatLE(84 + triangle * 50 + 12 + vertex * 12 + axis * 4)
        min[axis] = Math.min(min[axis]!, value)
        max[axis] = Math.max(max[axis]!, value)
      }
    }
  }
  return [max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!]
}
