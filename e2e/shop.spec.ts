import fs from 'node:fs'
import { expect, type Page, type Request, test } from '@playwright/test'
import { slicerInfo } from '../test/support/print-ready'
import { ADMIN, signIn } from '../test/support/start-server'
import { SHOP_PORT } from './ports'

// The demo shop (demo/shop) as a customer and a shop use it: a product page on
// http://localhost:SHOP_PORT framing the configurator from the server's origin
// (http://127.0.0.1:E2E_PORT) through /embed.js; its back end gets orders by webhook.

const SHOP = `http://localhost:${SHOP_PORT}`

interface ShopState {
  orders: { snapshotId: string; webhookId: string; text: string; bytes: number; file: string }[]
  received: { webhookId: string; status: number }[]
}

type Message = {
  type: string
  requestId?: string
  requestIds?: string[]
  code?: string
  values?: { name: string; text_size: number; font: string; with_hole: boolean }
  estimate?: boolean
  price?: { amount: string } | null
}

async function shopState(page: Page): Promise<ShopState> {
  return (await page.request.get(`${SHOP}/orders`)).json()
}

/** Every message the embed posts to the shop page, kept for the test. */
async function recordMessages(page: Page) {
  await page.evaluate(() => {
    const seen: unknown[] = []
    ;(window as unknown as { seen: unknown[] }).seen = seen
    window.addEventListener('message', (event) => seen.push(event.data))
  })
}

function messages(page: Page): Promise<Message[]> {
  return page.evaluate(() => (window as unknown as { seen: Message[] }).seen)
}

async function volumeOf(bytes: Uint8Array): Promise<number> {
  const [object] = await slicerInfo(bytes)
  return Number(object!.volume)
}

test(
  'the shop page sets a value and sees ' +
    'its price, orders a snapshot that later ' +
    'changes leave as it was; its back end ' +
    'gets a retried, signed webhook and the 3MF',
  async ({ page, baseURL }) => {
    await page.goto(SHOP)
    await recordMessages(page)
    const price = page.getByLabel('Price')
    const text = page.getByLabel('Text on the tag')
    await expect(price).toHaveText(/^€\d+\.\d\d$/, { timeout: 60_000 })
    const before = await price.textContent()

    // Set from the shop's own input as the customer types, without leaving the field: a change with
    // the new text and its final price follows.
    await text.fill('Ada Lovelace')
    await expect
      .poll(
        async () =>
          (await messages(page)).some(
            (m) => m.type === 'change' && m.values?.name === 'Ada Lovelace' && m.estimate === false,
          ),
        // The final quality, then the slicer's quote, in the background once the value settles.
        { timeout: 60_000 },
      )
      .toBe(true)
    await expect(price).not.toHaveText(before!)
    const orderedPrice = (await messages(page)).findLast((m) => m.type === 'change')!.price!.amount

    // Unknown message types, even from the right page, are ignored: no answer, nothing changes.
    await page.evaluate(() =>
      document
        .querySelector('iframe')!
        .contentWindow!.postMessage({ protocol: 'paraform', version: 1, type: 'delete', requestId: 'x' }, '*'),
    )

    // Add to cart takes a snapshot; the embed's own request shows the customer's credentials.
    const snapshotRequest = page.waitForRequest(
      (request: Request) => request.method() === 'POST' && request.url().endsWith('/snapshots'),
    )
    await page.getByRole('button', { name: 'Add to cart' }).click()
    const customer = (await snapshotRequest).headers()
    const item = page.locator('#cart li')
    await expect(item).toHaveText(`“Ada Lovelace” · €${orderedPrice}`)
    await expect(page.locator('#cart-status')).toHaveText('Added “Ada Lovelace” to the cart.')
    const snapshotId = (await item.getAttribute('data-snapshot'))!
    expect((await messages(page)).filter((m) => m.requestId === 'x')).toEqual([])

    // The customer goes on configuring after ordering.
    await text.fill('Grace')
    await expect
      .poll(async () => (await messages(page)).some((m) => m.type === 'change' && m.values?.name === 'Grace'), {
        timeout: 30_000,
      })
      .toBe(true)

    // The back end: the first delivery answered 500, the same message again 204, then the 3MF downloaded.
    // Other specs order from the same shop: this order's own deliveries are those of its message.
    await expect
      .poll(async () => (await shopState(page)).orders.map((order) => order.snapshotId), { timeout: 30_000 })
      .toContain(snapshotId)
    const state = await shopState(page)
    const order = state.orders.find((candidate) => candidate.snapshotId === snapshotId)!
    expect(order.text).toBe('Ada Lovelace')
    const received = state.received.filter((delivery) => delivery.webhookId === order.webhookId)
    expect(received.map((delivery) => delivery.status)).toEqual([500, 204])

    // The 3MF is the model of the old values: the volume of a fresh session's finalized model of "Ada Lovelace".
    const owner = { authorization: `Bearer ${await signIn(baseURL!)}` }
    const configurator = (
      (await (await page.request.get('/api/configurators', { headers: owner })).json()) as {
        UUID: string
        name: string
      }[]
    ).find((entry) => entry.name === 'Name tag')!
    const session = await (
      await page.request.post('/api/configsessions', { headers: owner, data: { configuratorId: configurator.UUID } })
    ).json()
    expect(
      (
        await page.request.put(`/api/configsessions/${session.id}/parameters`, {
          headers: owner,
          data: { name: { value: 'Ada Lovelace' } },
        })
      ).status(),
    ).toBe(200)
    const fresh = await (
      await page.request.get(`/api/configsessions/${session.id}/finalizedmodel?type=3mf`, { headers: owner })
    ).body()
    const ordered = await volumeOf(new Uint8Array(fs.readFileSync(order.file)))
    expect(ordered).toBeCloseTo(await volumeOf(new Uint8Array(fresh)), 1)

    // The customer's own token reads the snapshot, but not its finalized model.
    const asCustomer = { authorization: customer.authorization!, 'x-api-key': customer['x-api-key']! }
    expect((await page.request.get(`/api/snapshots/${snapshotId}`, { headers: asCustomer })).status()).toBe(200)
    expect(
      (
        await page.request.get(`/api/snapshots/${snapshotId}/finalizedmodel?type=3mf`, { headers: asCustomer })
      ).status(),
    ).toBe(403)

    // The designer sees the delivery in the studio's log: delivered on the second attempt.
    await page.goto(`/signin?next=${encodeURIComponent(`/studio/configurators/${configurator.UUID}/applications`)}`)
    await page.getByLabel('Email').fill(ADMIN.email)
    await page.getByLabel('Password').fill(ADMIN.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('button', { name: /Demo shop/ }).click()
    const delivery = page.getByRole('table', { name: 'Webhook deliveries' }).getByRole('row').nth(1)
    await expect(delivery).toContainText('snapshot.created')
    await expect(delivery).toContainText('delivered')
    await expect(delivery.getByRole('cell').nth(2)).toHaveText('2')
    await expect(delivery).toContainText('HTTP 204')
  },
)

test(
  "the shop's own controls drive the " +
    "configurator's viewer, follow its presets, and " +
    'link to the page with the values; an ' +
    'unknown preset is an error to its request',
  { tag: '@phone' },
  async ({ page }) => {
    // Two presets, a text and a hole built at both qualities, then the page opened again: longer than most.
    test.slow()
    await page.goto(SHOP)
    // The configurator shows the product alone: the shop's page holds the controls.
    await expect(page.frameLocator('iframe').getByTestId('model-viewer')).toBeVisible({ timeout: 60_000 })
    await expect(page.frameLocator('iframe').getByRole('textbox', { name: 'Name', exact: true })).toBeHidden()
    await recordMessages(page)
    const text = page.getByLabel('Text on the tag')
    await expect(page.getByLabel('Price')).toHaveText(/^€\d+\.\d\d$/, { timeout: 60_000 })
    await text.fill('Grace')
    await expect
      .poll(async () => (await messages(page)).some((m) => m.type === 'change' && m.values?.name === 'Grace'), {
        timeout: 30_000,
      })
      .toBe(true)

    // The shop's style button: embed.js applies the preset (every parameter, the text back to its
    // default, as OpenSCAD does), then the shop sets its customer's text again.
    await page.getByRole('button', { name: 'Desk sign' }).click()
    const isDeskSign = (m: Message) =>
      m.type === 'change' &&
      m.values?.text_size === 16 &&
      m.values.font === 'DejaVu Serif' &&
      m.values.with_hole === false
    await expect
      .poll(
        async () =>
          (await messages(page)).some(
            (m) => isDeskSign(m) && m.values?.name === 'Paraform' && m.requestIds?.length === 1,
          ),
        { timeout: 30_000 },
      )
      .toBe(true)
    await expect
      .poll(async () => (await messages(page)).findLast((m) => m.type === 'change'), { timeout: 60_000 })
      .toMatchObject({ values: { name: 'Grace', text_size: 16, font: 'DejaVu Serif' }, estimate: false })
    await expect(text).toHaveValue('Grace')
    // The shop's controls follow the preset's values.
    await expect(page.getByLabel('Letter size')).toHaveValue('16')
    await expect(page.getByLabel('Hole for a key ring')).not.toBeChecked()
    await expect(page.getByRole('button', { name: 'Desk sign' })).toHaveAttribute('aria-pressed', 'true')
    await page.screenshot({ path: test.info().outputPath('shop-desk-sign.png') })

    // The shop's own controls: the hole back on, and the change follows.
    await page.getByLabel('Hole for a key ring').check()
    await expect
      .poll(async () => (await messages(page)).findLast((m) => m.type === 'change')?.values, { timeout: 30_000 })
      .toMatchObject({ name: 'Grace', with_hole: true })

    // The page's link carries the values; opened, the configurator starts from them.
    await page.getByRole('link', { name: 'Link to this name tag' }).click()
    await expect(page).toHaveURL(/\?name=Grace&text_size=16&font=DejaVu\+Serif&with_hole=true$/)
    await expect(text).toHaveValue('Grace', { timeout: 60_000 })
    await expect(page.getByLabel('Letter size')).toHaveValue('16')
    await expect(page.getByLabel('Price')).toHaveText(/^€\d+\.\d\d$/, { timeout: 60_000 })
    await recordMessages(page)

    // The protocol itself, as a shop without embed.js speaks it: the change names the request it completes.
    const post = (message: object) =>
      page.evaluate(
        (data) =>
          document
            .querySelector('iframe')!
            .contentWindow!.postMessage({ protocol: 'paraform', version: 1, ...data }, '*'),
        message,
      )
    await post({ type: 'applyPreset', requestId: 'keyring', name: 'Keyring' })
    await expect
      .poll(async () => (await messages(page)).find((m) => m.requestIds?.includes('keyring'))?.values, {
        timeout: 30_000,
      })
      .toMatchObject({ name: 'Paraform', text_size: 8, with_hole: true })
    await post({ type: 'applyPreset', requestId: 'gold', name: 'Gold' })
    await expect
      .poll(async () => (await messages(page)).find((m) => m.requestId === 'gold'))
      .toMatchObject({ type: 'error', code: 'not_found' })
  },
)

test('messages from a page that does not frame the configurator on its domain are ignored', async ({ page }) => {
  // A page of another origin (the server's own) opens the shop's embed in a window and tries to drive it.
  await page.goto('/')
  const key = /key: '([^']+)'/.exec(await (await page.request.get(SHOP)).text())![1]!
  const popupOpened = page.waitForEvent('popup')
  await page.evaluate(
    (url) => ((window as unknown as { embed: Window | null }).embed = window.open(url)),
    `/embed/${key}`,
  )
  const popup = await popupOpened
  const field = popup.getByRole('textbox', { name: 'Name', exact: true })
  await expect(field).toHaveValue('Paraform', { timeout: 60_000 })
  await page.evaluate(() =>
    (window as unknown as { embed: Window }).embed.postMessage(
      { protocol: 'paraform', version: 1, type: 'set', requestId: 'm', values: { name: 'Mallory' } },
      '*',
    ),
  )
  // Nothing to wait for when a message is ignored: give a set the time it takes on the shop page.
  await popup.waitForTimeout(2000)
  await expect(field).toHaveValue('Paraform')
})
