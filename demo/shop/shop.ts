// The demo shop: a product page on its own origin that embeds the demo name tag through
// /embed.js, and the shop's back end, which receives Paraform's webhooks, checks their
// signatures and downloads each ordered snapshot's 3MF with its server token. Plain
// node:http, as small as a shop's integration can be; `npm start` runs it beside the server.
import fs from 'node:fs/promises'
import http from 'node:http'
import path from 'node:path'
import { Webhook, WebhookVerificationError } from 'standardwebhooks'

export interface DemoShopOptions {
  port: number
  /** Where browsers and this back end reach Paraform. */
  paraformUrl: string
  applicationKey: string
  applicationSecret: string
  webhookSecret: string
  /** Where downloaded 3MF files go. */
  ordersDir: string
  /** Answer 500 to each message's first delivery, to show Paraform retrying. */
  failFirstDelivery: boolean
}

interface Order {
  snapshotId: string
  /** The webhook message that brought it. */
  webhookId: string
  text: string
  price: { amount: string; currency: string } | null
  file: string
  bytes: number
  receivedAt: string
}

/** A webhook delivery as the back end saw it. */
interface Received {
  webhookId: string
  status: number
}

const PAGE = path.join(import.meta.dirname, 'index.html')
const MAX_BODY = 256 * 1024

export async function startDemoShop(options: DemoShopOptions): Promise<http.Server> {
  const webhook = new Webhook(options.webhookSecret)
  const orders: Order[] = []
  const received: Received[] = []
  await fs.mkdir(options.ordersDir, { recursive: true })

  async function serverToken(): Promise<string> {
    const response = await fetch(`${options.paraformUrl}/api/auth/application`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: options.applicationKey, secretKey: options.applicationSecret }),
    })
    if (!response.ok) throw new Error(`server token: HTTP ${response.status}`)
    return ((await response.json()) as { accessToken: string }).accessToken
  }

  async function fulfil(
    snapshot: { id: string; parameters: Record<string, { value: unknown }>; quote: { price: Order['price'] } },
    webhookId: string,
  ): Promise<void> {
    const response = await fetch(`${options.paraformUrl}/api/snapshots/${snapshot.id}/finalizedmodel?type=3mf`, {
      headers: { authorization: `Bearer ${await serverToken()}`, 'x-api-key': options.applicationKey },
    })
    if (!response.ok) throw new Error(`finalized model: HTTP ${response.status}`)
    const bytes = new Uint8Array(await response.arrayBuffer())
    const file = path.join(options.ordersDir, `${snapshot.id}.3mf`)
    await fs.writeFile(file, bytes)
    const name = snapshot.parameters.name?.value
    orders.push({
      snapshotId: snapshot.id,
      webhookId,
      text: typeof name === 'string' ? name : '',
      price: snapshot.quote.price,
      file,
      bytes: bytes.byteLength,
      receivedAt: new Date().toISOString(),
    })
  }

  async function receiveWebhook(request: http.IncomingMessage): Promise<number> {
    const body = await readBody(request)
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]))
    let event: { type: string; data: { snapshot: Parameters<typeof fulfil>[0] } }
    try {
      event = webhook.verify(body, headers) as typeof event
    } catch (error) {
      if (error instanceof WebhookVerificationError) return 401
      throw error
    }
    const webhookId = headers['webhook-id']!
    if (options.failFirstDelivery && !received.some((earlier) => earlier.webhookId === webhookId)) return 500
    // Deliveries are at least once: a repeated id is acknowledged, not fulfilled twice.
    const isRepeat = received.some((earlier) => earlier.webhookId === webhookId && earlier.status === 204)
    if (event.type === 'snapshot.created' && !isRepeat) await fulfil(event.data.snapshot, webhookId)
    return 204
  }

  const server = http.createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://shop')
      if (request.method === 'GET' && url.pathname === '/') {
        const page = (await fs.readFile(PAGE, 'utf8'))
          .replaceAll('{{PARAFORM_URL}}', options.paraformUrl)
          .replaceAll('{{APPLICATION_KEY}}', options.applicationKey)
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page)
      } else if (request.method === 'GET' && url.pathname === '/orders') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ orders, received }))
      } else if (request.method === 'POST' && url.pathname === '/webhook') {
        let status: number
        try {
          status = await receiveWebhook(request)
        } catch (error) {
          console.warn(`demo shop: webhook: ${(error as Error).message}`)
          status = 500
        }
        received.push({ webhookId: String(request.headers['webhook-id'] ?? ''), status })
        response.writeHead(status).end()
      } else {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
      }
    })().catch((error: unknown) => {
      console.warn(`demo shop: ${(error as Error).message}`)
      if (!response.headersSent) response.writeHead(500).end()
    })
  })
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(options.port, resolve))
  return server
}

async function readBody(request: http.IncomingMessage): Promise<string> {
  let body = ''
  for await (const chunk of request as AsyncIterable<Buffer>) {
    body += chunk.toString('utf8')
    if (body.length > MAX_BODY) throw new Error('webhook body too large')
  }
  return body
}
