import { expect, type Page, test } from '@playwright/test'
import { findDemo, waitForModelDrawn } from './fixtures'
import { SHOP_PORT } from './ports'

// The customer's page on a laptop's screen and on a phone's (390 × 844, touch: the `phone`
// project, playwright.config.ts), and what only a phone has: touch, and the demo shop in one
// column. Screenshots of each go to the test's output folder for a reviewer.

/** Whether the element's box lies within the window's height now. */
async function isOnScreen(page: Page, testId: string): Promise<boolean> {
  const box = await page.getByTestId(testId).boundingBox()
  return box !== null && box.y >= 0 && box.y + box.height <= page.viewportSize()!.height
}

/** One finger drawn up over the element, as a customer scrolls: the browser's own touch events. */
async function swipeUp(page: Page, testId: string) {
  const box = (await page.getByTestId(testId).boundingBox())!
  const x = box.x + box.width / 2
  const cdp = await page.context().newCDPSession(page)
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', y: number) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] })
  await touch('touchStart', box.y + box.height - 20)
  for (let step = 1; step <= 10; step++) await touch('touchMove', box.y + box.height - 20 - step * 20)
  await touch('touchEnd', 0)
}

for (const name of ['Box with lid', 'Name tag', 'Spur gear', 'Logo coaster']) {
  test(
    `${name}: with the last control scrolled into view, the product and its price stay on screen`,
    { tag: '@phone' },
    async ({ page, request }) => {
      const { applicationKey } = await findDemo(request, name)
      await page.goto(`/embed/${applicationKey}`)
      await waitForModelDrawn(page.getByTestId('model-viewer'), 0, 30_000)
      await expect(page.getByTestId('fact-weight')).not.toHaveText('...', { timeout: 30_000 })
      await page.getByRole('button', { name: 'Reset to defaults' }).scrollIntoViewIfNeeded()
      expect(await isOnScreen(page, 'product-view')).toBe(true)
      // A phone scrolls the page under the product and shows the figures over it; a laptop scrolls the panel beside it.
      const isPhone = await page.getByTestId('phone-figures').isVisible()
      if (isPhone) expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0)
      expect(await isOnScreen(page, isPhone ? 'phone-figures' : 'model-facts')).toBe(true)
      await page.screenshot({ path: test.info().outputPath(`${name}-scrolled.png`) })
    },
  )
}

test.describe('on a phone', { tag: '@phone-only' }, () => {
  test('one finger on the product scrolls the page; the product does not turn', async ({ page, request }) => {
    const { applicationKey } = await findDemo(request, 'Spur gear')
    await page.goto(`/embed/${applicationKey}`)
    const viewer = page.getByTestId('model-viewer')
    await waitForModelDrawn(viewer, 0, 30_000)
    const drawn = Number(await viewer.getAttribute('data-draw-count'))
    await swipeUp(page, 'model-viewer')
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(50)
    expect(Number(await viewer.getAttribute('data-draw-count'))).toBe(drawn)
  })

  test('the demo shop lays the configurator out at full width on a phone', async ({ page }) => {
    await page.goto(`http://localhost:${SHOP_PORT}/`)
    const frame = page.locator('iframe')
    await expect(frame).toBeVisible({ timeout: 30_000 })
    expect((await frame.boundingBox())!.width).toBeGreaterThanOrEqual(380)
    await waitForModelDrawn(page.frameLocator('iframe').getByTestId('model-viewer'), 0, 30_000)
    await page.screenshot({ path: test.info().outputPath('shop-phone.png'), fullPage: true })
  })
})
