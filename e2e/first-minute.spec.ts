import { randomUUID } from 'node:crypto'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { E2E_PORT, SHOP_PORT } from './ports'
import { expectAccessible, findDemo, logIn, signIn, waitForModelDrawn } from './fixtures'

// What a newcomer meets in the first minute (issue 45), at a laptop's size and, tagged @phone, a phone's.

test.use({ contextOptions: { reducedMotion: 'reduce' } })

test(
  'a visitor tries a demo from the landing page without signing in; the studio stays behind sign-in',
  { tag: '@phone' },
  async ({ page }) => {
    await page.goto('/')
    const demos = page.getByRole('region', { name: 'Try a demo, no sign-in needed' })
    await expect(demos.getByRole('listitem')).toHaveCount(6)
    await expect(page.getByRole('link', { name: 'See one in the demo shop' })).toHaveAttribute(
      'href',
      `http://localhost:${SHOP_PORT}/`,
    )
    await expectAccessible(page)
    await page.screenshot({ path: test.info().outputPath('landing.png'), fullPage: true })

    await demos.getByRole('link', { name: /Box with lid/ }).click()
    await expect(page).toHaveURL(/\/embed\/pk_/)
    const viewer = page.getByTestId('model-viewer')
    const first = await waitForModelDrawn(viewer)
    const height = page.getByRole('spinbutton', { name: 'Height' })
    await height.fill('45')
    await height.press('Enter')
    await waitForModelDrawn(viewer, first)
    await expect(page.getByTestId('fact-height')).toHaveText('45.0 mm')
    await page.screenshot({ path: test.info().outputPath('visitor-demo.png') })

    await page.goto('/studio')
    await expect(page).toHaveURL(/\/signin\?next=%2Fstudio/)
  },
)

test('every page has a favicon; the sign-in page says where the first admin password is written', async ({
  page,
  request,
}) => {
  const icon = await request.get('/favicon.ico')
  expect(icon.status()).toBe(200)
  expect(icon.headers()['content-type']).toMatch(/image\//)

  // The server writes the file on a first start without ADMIN_PASSWORD (this one has it): as that start leaves it.
  const file = path.join(os.tmpdir(), `paraform-e2e-${E2E_PORT}`, 'admin-password.txt')
  await fs.writeFile(file, 'generated\n', { mode: 0o600 })
  try {
    await page.goto('/signin')
    await expect(page.getByText(`signs in with the password written to ${file} on the server`)).toBeVisible()
  } finally {
    await fs.rm(file)
  }
  await page.reload()
  await expect(page.getByText('signs in with the password written to')).toHaveCount(0)
})

test('a new configurator opens in its editor with a starter model that builds; new files and every file open with one click', async ({
  page,
  request,
}) => {
  await page.goto('/studio')
  await signIn(page)
  const name = `Tray ${randomUUID().slice(0, 8)}`
  await page.getByRole('textbox', { name: 'Name' }).fill(name)
  await page.getByRole('button', { name: 'Create configurator' }).click()
  await expect(page).toHaveURL(/\/studio\/configurators\/[\w-]+\/editor$/)
  const editor = page.getByRole('region', { name: 'Editor' })
  await expect(editor.locator('.cm-content')).toContainText('/* [Size] */')
  await waitForModelDrawn(page.getByTestId('model-viewer'), 0, 60_000)
  await expect(page.getByRole('spinbutton', { name: 'Width' })).toHaveValue('60')
  // At least half of a 1440 px screen for the code.
  expect((await editor.boundingBox())!.width).toBeGreaterThanOrEqual(720)
  await page.screenshot({ path: test.info().outputPath('starter-editor.png') })

  // The preset file beside the main file opens with one click on its name.
  await page.getByRole('button', { name: 'main.json', exact: true }).click()
  await expect(editor.getByRole('heading', { name: 'configurator/main.json' })).toBeVisible()
  await expect(editor.locator('.cm-content')).toContainText('Small tray')

  // A new file opens at once, also where a missing main file had shown "not found".
  const headers = { authorization: `Bearer ${await logIn(request)}` }
  const empty = await request.post('/api/configurators', {
    headers,
    data: { name: `Empty ${name}`, mainFile: 'main.scad' },
  })
  await page.goto(`/studio/configurators/${((await empty.json()) as { UUID: string }).UUID}/editor`)
  await expect(page.getByText('File configurator/main.scad not found')).toBeVisible()
  await page.getByLabel('New file name').fill('main.scad')
  await page.getByRole('button', { name: 'New', exact: true }).click()
  await expect(editor.locator('.cm-content')).toBeVisible()
  await expect(page.getByText('File configurator/main.scad not found')).toHaveCount(0)
  await editor.locator('.cm-content').click()
  await page.keyboard.type('size = 10; // [5:30]\ncube(size);\n')
  await waitForModelDrawn(page.getByTestId('model-viewer'), 0, 60_000)
  await expectAccessible(page)
})

/** Drags the slider from its value's place to `to` of its width, pausing on the way at `pause` until the model there is drawn. */
async function dragWithPause(page: Page, slider: Locator, from: number, pause: number, to: number) {
  const box = (await slider.boundingBox())!
  const at = (fraction: number) => box.x + box.width * fraction
  const y = box.y + box.height / 2
  const viewer = page.getByTestId('model-viewer')
  const drawn = Number(await viewer.getAttribute('data-model-version'))
  await page.mouse.move(at(from), y)
  await page.mouse.down()
  await page.mouse.move(at(pause), y, { steps: 8 })
  await waitForModelDrawn(viewer, drawn)
  await page.mouse.move(at(to), y, { steps: 8 })
  await page.mouse.up()
}

test(
  'a drag with a pause on the way, a key held down and a preset are one step of undo each',
  { tag: '@phone' },
  async ({ page, request }) => {
    const { applicationKey } = await findDemo(request, 'Name tag')
    await page.goto(`/embed/${applicationKey}`)
    const viewer = page.getByTestId('model-viewer')
    await waitForModelDrawn(viewer)
    const size = page.getByRole('spinbutton', { name: 'Text size' })
    await expect(size).toHaveValue('10')
    const slider = page.getByRole('slider', { name: 'Text size' })
    await slider.scrollIntoViewIfNeeded()
    // 5 to 20 mm: from 10 (a third), a pause near 13, let go near 16.
    await dragWithPause(page, slider, 1 / 3, 0.53, 0.73)
    await expect(page.getByText('Building...')).toBeHidden({ timeout: 30_000 })
    const dropped = Number(await size.inputValue())
    expect(dropped).toBeGreaterThan(14)

    const undo = page.getByRole('button', { name: 'Undo' })
    await undo.click()
    await expect(size).toHaveValue('10')
    await expect(page.getByTestId('fact-depth')).not.toHaveText(/≈/)
    await expect(undo).toBeDisabled()

    // A key held down: its repeats are one gesture, built on the way as the value passes.
    await slider.focus()
    for (let press = 0; press < 3; press++) await page.keyboard.down('ArrowRight')
    await waitForModelDrawn(viewer, Number(await viewer.getAttribute('data-model-version')))
    for (let press = 0; press < 3; press++) await page.keyboard.down('ArrowRight')
    await page.keyboard.up('ArrowRight')
    await expect(size).toHaveValue('13')
    await expect(page.getByText('Building...')).toBeHidden({ timeout: 30_000 })
    await undo.click()
    await expect(size).toHaveValue('10')

    // A preset is one step too.
    await page.getByLabel('Preset').selectOption('Desk sign')
    await expect(size).toHaveValue('16')
    await expect(page.getByText('Building...')).toBeHidden({ timeout: 30_000 })
    await undo.click()
    await expect(size).toHaveValue('10')
    await expect(undo).toBeDisabled()
  },
)

/** Pixels along the left, right and top edges of the viewer that are not its plain full-screen background. */
async function countEdgePixels(page: Page, viewer: Locator): Promise<number> {
  const png = (await viewer.screenshot()).toString('base64')
  return page.evaluate(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0))
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }))
    const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!
    context.drawImage(bitmap, 0, 0)
    const { data, width, height } = context.getImageData(0, 0, bitmap.width, bitmap.height)
    const differs = (x: number, y: number) => {
      const index = (y * width + x) * 4
      return (
        Math.abs(data[index]! - data[0]!) +
          Math.abs(data[index + 1]! - data[1]!) +
          Math.abs(data[index + 2]! - data[2]!) >
        40
      )
    }
    let count = 0
    // The view buttons sit in the bottom 3.5 rem.
    for (let y = 0; y < height - 56; y++)
      for (const x of [0, 1, 2, width - 3, width - 2, width - 1]) if (differs(x, y)) count++
    for (let x = 0; x < width; x++) for (const y of [0, 1, 2]) if (differs(x, y)) count++
    return count
  }, png)
}

test(
  'full screen fits the whole product, on a phone held upright as on a laptop, and names the way out',
  { tag: '@phone' },
  async ({ page, request }) => {
    for (const demo of ['Name tag', 'Box with lid']) {
      const { applicationKey } = await findDemo(request, demo)
      await page.goto(`/embed/${applicationKey}`)
      const viewer = page.getByTestId('model-viewer')
      await waitForModelDrawn(viewer)
      await page.getByRole('button', { name: 'Full screen' }).click()
      await expect(page.getByRole('button', { name: 'Exit full screen' })).toBeVisible()
      await expect
        .poll(() => page.evaluate(() => document.fullscreenElement?.getAttribute('data-testid')))
        .toBe('model-viewer')
      await expect.poll(async () => (await viewer.boundingBox())?.height).toBe(page.viewportSize()!.height)
      // Drawn again for the new size, the product whole inside the screen.
      await expect.poll(() => countEdgePixels(page, viewer), { timeout: 10_000 }).toBe(0)
      await page.screenshot({ path: test.info().outputPath(`full-screen-${demo}.png`) })
      await page.getByRole('button', { name: 'Reset view' }).click()
      await expect.poll(() => countEdgePixels(page, viewer)).toBe(0)

      await page.getByRole('button', { name: 'Exit full screen' }).click()
      await expect(page.getByRole('button', { name: 'Full screen' })).toBeVisible()
      expect(await page.evaluate(() => document.fullscreenElement)).toBeNull()
    }
  },
)

test(
  'the demo shop follows typing without leaving the field, and confirms Add to cart',
  { tag: '@phone' },
  async ({ page }) => {
    await page.goto(`http://localhost:${SHOP_PORT}/`)
    const price = page.getByLabel('Price')
    await expect(price).toHaveText(/^€\d+\.\d\d$/, { timeout: 60_000 })
    const before = await price.textContent()
    const text = page.getByLabel('Text on the tag')
    await text.fill('')
    await text.pressSequentially('Grace Hopper', { delay: 50 })
    // Still in the field: the product and its price follow.
    await expect(text).toBeFocused()
    await expect(price).not.toHaveText(before!, { timeout: 30_000 })
    // The final price follows the slicer's quote of the new text, in the background.
    await expect(price).toHaveText(/^€\d+\.\d\d$/, { timeout: 30_000 })
    await expect(text).toBeFocused()

    await page.getByRole('button', { name: 'Add to cart' }).click()
    const confirmation = page.locator('#cart-status')
    await expect(confirmation).toHaveText('Added “Grace Hopper” to the cart.', { timeout: 30_000 })
    await expect(confirmation).toBeInViewport()
    await page.screenshot({ path: test.info().outputPath('shop-added.png') })
  },
)

test(
  'a product larger than the printer has no price and says why, as a refused value does',
  { tag: '@phone' },
  async ({ page, request }) => {
    const { applicationKey } = await findDemo(request, 'Name tag')
    await page.goto(`/embed/${applicationKey}?name=${'W'.repeat(20)}&text_size=20`)
    await waitForModelDrawn(page.getByTestId('model-viewer'))
    await expect(page.getByTestId('build-failure')).toContainText(
      /These values cannot be made: The model measures .+ mm: it does not fit the 250 × 210 × 220 mm build volume/,
      { timeout: 30_000 },
    )
    await expect(page.getByTestId('fact-price')).toHaveCount(0)
    await expect(page.getByRole('link', { name: 'Download STL' })).toHaveCount(0)
    await expectAccessible(page)
    await page.screenshot({ path: test.info().outputPath('not-for-sale.png') })
  },
)

test('the studio says what is true now: the failed defaults by name, the release customers get, going back and forward', async ({
  page,
  request,
}) => {
  const headers = { authorization: `Bearer ${await logIn(request)}` }
  const created = await request.post('/api/configurators', {
    headers,
    data: { name: `Words ${randomUUID().slice(0, 8)}`, mainFile: 'main.scad' },
  })
  const { UUID: configuratorId } = (await created.json()) as { UUID: string }
  const upload = async (source: string) =>
    expect(
      (
        await request.put(`/api/configurators/${configuratorId}/files/configurator/main.scad`, {
          headers,
          data: source,
        })
      ).status(),
    ).toBe(202)
  await upload('size = 10; // [5:20]\nassert(size > 50, "too small to print");\ncube(size);\n')

  await page.goto(`/studio/configurators/${configuratorId}/releases`)
  await signIn(page)
  const preparation = page.getByRole('status', { name: 'Preparation' })
  await expect(preparation).toContainText('the defaults did not build:', { timeout: 60_000 })
  await expect(page.getByRole('list', { name: 'Models that did not build' })).toContainText('The defaults')
  const publish = page.getByRole('button', { name: 'Publish' })
  await expect(async () => {
    await publish.click()
    await expect(
      page.getByText(/^Not published: the defaults and \d+ test drive samples? did not build\./),
    ).toBeVisible({
      timeout: 3_000,
    })
  }).toPass({ timeout: 60_000 })
  await expect(page.getByText(/override: true/)).toHaveCount(0)
  await page.getByLabel('Publish although some models do not build').check()
  await publish.click()
  await expect(
    page.getByRole('status').filter({ hasText: 'Published release 1: new sessions get it now.' }),
  ).toBeVisible()

  await upload('size = 10; // [5:20]\ncube(size);\n')
  await expect(preparation).toContainText('1 model (the defaults) built.', { timeout: 60_000 })
  await expect(async () => {
    await publish.click()
    await expect(page.getByRole('status').filter({ hasText: 'Published release 2' })).toBeVisible({ timeout: 3_000 })
  }).toPass({ timeout: 60_000 })
  await page.getByRole('button', { name: 'Roll back to release 1' }).click()
  await expect(page.getByRole('listitem', { name: 'Release 1' })).toContainText('Customers get this')
  // The publish message of release 2 is no longer true; going back to it is going forward.
  await expect(page.getByText('Published release 2')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Go forward to release 2' })).toBeVisible()
  await expectAccessible(page)
  await page.screenshot({ path: test.info().outputPath('releases-words.png'), fullPage: true })

  await page.getByRole('link', { name: 'Editor' }).click()
  await expect(page.getByText('Customers get release 1; your saves stay in the draft')).toBeVisible()
  await expect(page.getByText('Preview-quality files of the draft.')).toBeVisible({ timeout: 60_000 })
})
