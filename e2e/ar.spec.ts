import { createRequire } from 'node:module'
import { devices, expect, test, type Browser, type Page } from '@playwright/test'
import { createConfigurator, expectAccessible, findDemo, waitForModelDrawn } from './fixtures'

// "View in your space" (docs/ar.md) on the three kinds of device, told by the user agent: an
// iPhone gets Quick Look's rel="ar" link to the USDZ, an Android phone Scene Viewer's intent with
// the GLB, a desktop a QR code of the share link, which opens the same values on a phone.

const jsQrPath = createRequire(import.meta.url).resolve('jsqr/dist/jsQR.js')

const PHONES = {
  iPhone: devices['iPhone 13'],
  Android: devices['Pixel 7'],
}

/** A phone's page: its user agent, screen and touch, in this project's Chromium. */
async function phonePage(browser: Browser, phone: keyof typeof PHONES): Promise<Page> {
  const { userAgent, viewport, deviceScaleFactor } = PHONES[phone]
  const context = await browser.newContext({ userAgent, viewport, deviceScaleFactor, hasTouch: true, isMobile: true })
  return context.newPage()
}

/** The widest X the USDZ's parts reach, in millimetres: its USDA layer is stored, not compressed, so it reads as text. */
function usdzWidth(usdz: Buffer): number {
  const extents = [...usdz.toString('latin1').matchAll(/float3\[\] extent = \[\(([-\d.e]+), [^)]*\), \(([-\d.e]+),/g)]
  return Math.max(...extents.map((match) => Number(match[2]))) - Math.min(...extents.map((match) => Number(match[1])))
}

test.describe('View in your space', () => {
  test.skip(({ isMobile }) => isMobile, 'each test sets up its own devices')

  test('an iPhone gets a Quick Look link to the USDZ of the values it shows, never a stale one', async ({
    browser,
    request,
  }, testInfo) => {
    const { applicationKey } = await findDemo(request, 'Box with lid')
    const page = await phonePage(browser, 'iPhone')
    await page.goto(`/embed/${applicationKey}?width=90&with_lid=false`)
    const viewer = page.getByTestId('model-viewer')
    const drawn = await waitForModelDrawn(viewer)
    const link = page.getByTestId('ar-link')
    await expect(link).toHaveAttribute('rel', 'ar')
    await expect(link.locator('> img:first-child')).toHaveAttribute('alt', 'View in your space')
    const href = (await link.getAttribute('href'))!
    expect(href).toMatch(/\/api\/configsessions\/[\w-]+\/model\?type=usdz&key=[^#]+#allowsContentScaling=0$/)
    // A phone's viewer fetches it as is: no header, the modelKey in the address.
    const fetch = async (url: string) => {
      const response = await request.get(url.replace(/#.*/, ''))
      expect(response.status()).toBe(200)
      expect(response.headers()['content-type']).toBe('model/vnd.usdz+zip')
      return response.body()
    }
    const boxWidth = usdzWidth(await fetch(href))
    await page.screenshot({ path: testInfo.outputPath('ar-iphone.png') })
    await expectAccessible(page)

    // Wider: once the new model is shown, the same link gives the new values' model.
    await page.getByRole('spinbutton', { name: 'Width' }).fill('120')
    await page.getByRole('spinbutton', { name: 'Width' }).blur()
    await waitForModelDrawn(viewer, drawn)
    await expect(link).toBeVisible()
    expect(usdzWidth(await fetch((await link.getAttribute('href'))!)) - boxWidth).toBeCloseTo(30, 3)
    await page.context().close()
  })

  test("an Android phone gets Scene Viewer's intent with the GLB", async ({ browser, request }, testInfo) => {
    const { applicationKey } = await findDemo(request, 'Name tag')
    const page = await phonePage(browser, 'Android')
    await page.goto(`/embed/${applicationKey}`)
    await waitForModelDrawn(page.getByTestId('model-viewer'))
    const link = page.getByRole('link', { name: 'View in your space' })
    const href = (await link.getAttribute('href'))!
    const [address, intent] = href.split('#Intent;')
    expect(address).toMatch(/^intent:\/\/arvr\.google\.com\/scene-viewer\/1\.2\?/)
    expect(intent).toMatch(
      /^scheme=https;package=com\.google\.android\.googlequicksearchbox;.*S\.browser_fallback_url=/,
    )
    const query = new URL(address!.replace(/^intent:/, 'https:')).searchParams
    expect(query.get('title')).toBe('Name tag')
    const glb = await request.get(query.get('file')!)
    expect(glb.status()).toBe(200)
    expect(glb.headers()['content-type']).toBe('model/gltf-binary')
    await page.screenshot({ path: testInfo.outputPath('ar-android.png') })
    await page.context().close()
  })

  test('a desktop shows a QR code of the share link, which opens the same values on another page', async ({
    page,
    context,
    request,
  }, testInfo) => {
    const { applicationKey } = await findDemo(request, 'Box with lid')
    await page.goto(`/embed/${applicationKey}?width=90&with_lid=false`)
    await waitForModelDrawn(page.getByTestId('model-viewer'))
    await page.getByRole('button', { name: 'View in your space' }).click()
    const qr = page.getByRole('dialog', { name: 'View in your space' }).getByTestId('ar-qr')
    await expect(qr).toBeVisible()
    await page.screenshot({ path: testInfo.outputPath('ar-desktop-qr.png') })
    await expectAccessible(page)

    // Read by jsQR, a QR reading library, from the image's pixels.
    await page.addScriptTag({ path: jsQrPath })
    const decoded = await qr.evaluate((image: HTMLImageElement) => {
      const canvas = document.createElement('canvas')
      canvas.width = image.naturalWidth
      canvas.height = image.naturalHeight
      const context2d = canvas.getContext('2d')!
      context2d.drawImage(image, 0, 0)
      const { data, width, height } = context2d.getImageData(0, 0, canvas.width, canvas.height)
      const read = (
        window as unknown as { jsQR: (d: Uint8ClampedArray, w: number, h: number) => { data: string } | null }
      ).jsQR(data, width, height)
      return read?.data ?? null
    })
    expect(decoded).toBe(await page.getByRole('textbox', { name: 'Shareable link' }).inputValue())

    const phone = await context.newPage()
    await phone.goto(decoded!)
    await expect(phone.getByRole('spinbutton', { name: 'Width' })).toHaveValue('90')
    await expect(phone.getByRole('checkbox', { name: /lid/i })).not.toBeChecked()
    await waitForModelDrawn(phone.getByTestId('model-viewer'))
    await phone.close()
  })

  test('a model too detailed for a phone says why instead of a link', async ({ page, request }, testInfo) => {
    const { applicationKey } = await createConfigurator(
      request,
      `Fine sphere ${testInfo.testId}`,
      'sphere(r = 20, $fn = 400);\n',
    )
    await page.goto(`/embed/${applicationKey}`)
    await waitForModelDrawn(page.getByTestId('model-viewer'), 0, 120_000)
    await expect(page.getByTestId('ar-unavailable')).toHaveText(
      /^View in your space is not offered for these values\. It is too detailed for a phone to show in your space: [\d,]+ triangles, over 100,000\.$/,
    )
    await expect(page.getByRole('button', { name: 'View in your space' })).toHaveCount(0)
  })
})
