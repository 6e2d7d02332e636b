import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from '@playwright/test'
import { countModelPixels, createConfigurator, findDemo, SHELF, waitForModelDrawn } from './fixtures'

/** Serves the request listener on 127.0.0.1 at a free port; answers its host:port and a closer. */
async function listen(listener: http.RequestListener): Promise<{ host: string; close: () => Promise<void> }> {
  const server = http.createServer(listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { host: `127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

test('the embed page works framed by the application domain and is refused by any other', async ({
  page,
  request,
  baseURL,
}) => {
  // One shop page, served on the registered host:port and on another port.
  let embedUrl = 'about:blank'
  const shopPage: http.RequestListener = (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' })
    response.end(
      `<!doctype html><title>Shop</title><h1>Our shop</h1><iframe title="Configurator" src="${embedUrl}" width="1000" height="700"></iframe>`,
    )
  }
  const shop = await listen(shopPage)
  const otherShop = await listen(shopPage)
  try {
    const { configuratorId, token } = await findDemo(request, 'Spur gear')
    const headers = { authorization: `Bearer ${token}` }
    const registered = await request.post(`/api/configurators/${configuratorId}/applications`, {
      headers,
      data: { name: `Framing shop ${shop.host}`, domain: shop.host },
    })
    expect(registered.status()).toBe(200)
    const { UUID } = (await registered.json()) as { UUID: string }
    const { key } = (await (await request.get(`/api/applications/${UUID}`, { headers })).json()) as { key: string }
    embedUrl = `${baseURL}/embed/${key}`
    const embedResponse = await request.get(embedUrl)
    expect(embedResponse.headers()['content-security-policy']).toBe(
      `frame-ancestors http://${shop.host} https://${shop.host}`,
    )

    await page.goto(`http://${shop.host}/`)
    const frame = page.frameLocator('iframe[title="Configurator"]')
    await expect(frame.getByRole('heading', { name: 'Spur gear' })).toBeVisible()
    const viewer = frame.getByTestId('model-viewer')
    await waitForModelDrawn(viewer)
    expect(await countModelPixels(page, viewer)).toBeGreaterThan(2000)

    const refusals: string[] = []
    page.on('console', (message) => message.text().includes('frame-ancestors') && refusals.push(message.text()))
    await page.goto(`http://${otherShop.host}/`)
    await expect(page.getByRole('heading', { name: 'Our shop' })).toBeVisible()
    await expect.poll(() => refusals.length).toBeGreaterThan(0)
    await expect(frame.getByRole('heading', { name: 'Spur gear' })).toHaveCount(0)
    expect(page.frames().some((candidate) => candidate.url().includes('/embed/'))).toBe(false)
  } finally {
    await Promise.all([shop.close(), otherShop.close()])
  }
})

test('an unknown application key gets a friendly 404 page', async ({ page }) => {
  const response = await page.goto('/embed/no-such-key')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'This configurator is not available' })).toBeVisible()
  expect(response?.headers()['content-security-policy']).toBe("frame-ancestors 'none'")
})

/** Serves one HTML page on every interface at a free port (the tests open it as localhost); answers the port and a closer. */
async function servePage(html: string): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' })
    response.end(html)
  })
  await new Promise<void>((resolve) => server.listen(0, resolve))
  const { port } = server.address() as AddressInfo
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

test("Paraform.mount resolves on any port of a domain without one, and rejects with the page's origin outside its domain", async ({
  page,
  request,
  baseURL,
}) => {
  // A shop page on localhost at a port of its own, mounting the application its query names.
  const shop = await servePage(
    `<!doctype html><title>Shop</title><div id="product"></div><script src="${baseURL}/embed.js"></script>
<script>
  const query = new URLSearchParams(location.search)
  window.mounted = Paraform.mount(document.getElementById('product'), { key: query.get('key'), timeout: 3000 })
    .then(() => 'ready', (error) => error.code + ': ' + error.message)
</script>`,
  )
  const { port } = shop
  try {
    const { configuratorId, applicationKey, token } = await findDemo(request, 'Name tag')
    await page.goto(`http://localhost:${port}/?key=${applicationKey}`)
    expect(await page.evaluate(() => (window as unknown as { mounted: Promise<string> }).mounted)).toBe('ready')

    const headers = { authorization: `Bearer ${token}` }
    const registered = await request.post(`/api/configurators/${configuratorId}/applications`, {
      headers,
      data: { name: 'Shop on another port', domain: `localhost:${port + 1}` },
    })
    const { UUID } = (await registered.json()) as { UUID: string }
    const { key } = (await (await request.get(`/api/applications/${UUID}`, { headers })).json()) as { key: string }
    await page.goto(`http://localhost:${port}/?key=${key}`)
    expect(await page.evaluate(() => (window as unknown as { mounted: Promise<string> }).mounted)).toBe(
      `no_answer: Paraform.mount: the configurator did not answer this page ` +
        `(http://localhost:${port}) within 3 s. It ` +
        `talks only to pages of its application's ` +
        `domain: check that the domain matches http://localhost:${port} (a domain ` +
        `without a port allows every port of its host, one with a port only that port)`,
    )
  } finally {
    await shop.close()
  }
})

test(
  "a change the designer's assert refuses is not valid, and says why in the designer's words",
  { tag: '@phone' },
  async ({ page, request, baseURL }) => {
    const shop = await servePage(
      `<!doctype html><title>Shop</title><div id="product" style="height: 600px"></div><script src="${baseURL}/embed.js"></script>
<script>
  window.configurator = Paraform.mount(document.getElementById('product'), { key: new URLSearchParams(location.search).get('key') })
  window.refusedMaps = []
  window.configurator.then((configurator) => configurator.on('refusedValues', (map) => window.refusedMaps.push(map)))
</script>`,
    )
    const { port } = shop
    try {
      const { applicationKey } = await createConfigurator(request, `Embedded shelf ${test.info().testId}`, SHELF)
      await page.goto(`http://localhost:${port}/?key=${applicationKey}`)
      const set = (values: Record<string, number>) =>
        page.evaluate(async (values) => {
          const configurator = await (
            window as unknown as {
              configurator: Promise<{
                set: (values: Record<string, number>) => Promise<{ valid: boolean; failure: string | null }>
              }>
            }
          ).configurator
          const { valid, failure } = await configurator.set(values)
          return { valid, failure }
        }, values)
      expect(await set({ depth: 200 })).toEqual({
        valid: false,
        failure: 'The shelf must be at least as wide as it is deep',
      })
      expect(await set({ depth: 100 })).toEqual({ valid: true, failure: null })

      // The embed's messages carry where the model refuses values, for a shop's own controls to show.
      await expect
        .poll(
          () =>
            page.evaluate(() => {
              const maps = (window as unknown as { refusedMaps: { values: { depth: number }; parameters: object }[] })
                .refusedMaps
              return maps.findLast((map) => map.values.depth === 100)?.parameters
            }),
          { timeout: 60_000 },
        )
        .toMatchObject({
          depth: {
            searched: true,
            ranges: [{ from: 130, to: 300, message: 'The shelf must be at least as wide as it is deep' }],
          },
          width: {
            searched: true,
            ranges: [{ from: 60, to: 90, message: 'The shelf must be at least as wide as it is deep' }],
          },
        })
    } finally {
      await shop.close()
    }
  },
)

test(
  'mount options fit the embed to the shop: the viewer alone, share links to the shop’s page, and options it refuses',
  { tag: '@phone' },
  async ({ page, request, baseURL }) => {
    const { applicationKey: key } = await findDemo(request, 'Box with lid')
    // The shop's product page: mount options in its fragment as JSON, the values of a share link in its query.
    const shop = await servePage(
      `<!doctype html><title>Shop</title><div id="product" style="height: 600px"></div><script src="${baseURL}/embed.js"></script>
<script>
  const options = JSON.parse(decodeURIComponent(location.hash.slice(1)) || '{}')
  window.mounted = Paraform.mount(document.getElementById('product'), { key: '${key}', timeout: 10000, values: location.search, ...options })
  window.outcome = window.mounted.then(() => 'ready', (error) => error.code + ': ' + error.message)
</script>`,
    )
    const { port } = shop
    const open = async (options: Record<string, unknown>) => {
      // Away first: a new fragment alone would not load the page again.
      await page.goto('about:blank')
      await page.goto(`http://localhost:${port}/#${encodeURIComponent(JSON.stringify(options))}`)
      return page.evaluate(() => (window as unknown as { outcome: Promise<string> }).outcome)
    }
    try {
      const frame = page.frameLocator('iframe')

      // The viewer alone, driven by the page: its set resolves with every value of the model.
      expect(await open({ controls: false })).toBe('ready')
      await expect(frame.getByTestId('model-viewer')).toBeVisible()
      await expect(frame.getByRole('spinbutton', { name: 'Width' })).toBeHidden()
      const change = await page.evaluate(async () => {
        const configurator = await (
          window as unknown as {
            mounted: Promise<{ set: (values: object) => Promise<{ values: Record<string, unknown> }> }>
          }
        ).mounted
        return (await configurator.set({ width: 100 })).values
      })
      expect(change).toMatchObject({ width: 100, depth: 60 })
      await page.screenshot({ path: test.info().outputPath('viewer-only.png') })
      // The shop's own button opens "View in your space" as the embed's would: on a desktop, its QR code.
      const opened = await page.evaluate(async () => {
        const configurator = await (window as unknown as { mounted: Promise<{ openAr: () => Promise<string> }> })
          .mounted
        return configurator.openAr()
      })
      expect(opened).toBe('qrCode')
      await expect(frame.getByRole('dialog', { name: 'View in your space' }).getByTestId('ar-qr')).toBeVisible()

      // Share links point at the shop's page, with the values in its query; price and presets can be left to the shop.
      const shareUrl = `http://localhost:${port}/product?sku=tag`
      expect(await open({ shareUrl, price: false, presets: false, values: { width: 90 } })).toBe('ready')
      const link = frame.getByRole('textbox', { name: 'Shareable link' })
      await expect(link).toHaveValue(`http://localhost:${port}/product?sku=tag&width=90`)
      await expect(frame.getByTestId('fact-price')).toHaveCount(0)

      // The link opens the shop's page, which hands its query to the embed: the values come back.
      await page.goto(await link.inputValue())
      expect(await page.evaluate(() => (window as unknown as { outcome: Promise<string> }).outcome)).toBe('ready')
      await expect(frame.getByRole('spinbutton', { name: 'Width' })).toHaveValue('90')
      await waitForModelDrawn(frame.getByTestId('model-viewer'))
      await expect(frame.getByTestId('fact-width')).toHaveText('190.0 mm')
      await page.screenshot({ path: test.info().outputPath('shared-link-opened.png') })

      expect(await open({ ar: false })).toBe('ready')
      await waitForModelDrawn(frame.getByTestId('model-viewer'))
      await expect(frame.getByTestId('fact-width')).toBeVisible()
      await expect(frame.getByRole('button', { name: 'View in your space' })).toHaveCount(0)
      expect(await open({ ar: 'yes' })).toBe('bad_option: Paraform.mount: ar must be true or false, not "yes"')
      expect(await open({ controls: 'no' })).toBe(
        'bad_option: Paraform.mount: controls must be true or false, not "no"',
      )
      expect(await open({ shareUrl: 'ftp://localhost/product' })).toBe(
        'bad_option: Paraform.mount: shareUrl must be an http(s) URL, not "ftp://localhost/product"',
      )
      expect(await open({ shareUrl: 'https://elsewhere.example/product' })).toBe(
        "bad_option: Paraform.mount: shareUrl https://elsewhere.example/product is not a page of the application's domain localhost",
      )
    } finally {
      await shop.close()
    }
  },
)
