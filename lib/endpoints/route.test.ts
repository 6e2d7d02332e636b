import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineOperation } from '@/lib/api/operation'
import { route } from '@/lib/endpoints/route'

const base = { method: 'GET', path: '/test', summary: 'test', tag: 'Test', auth: 'none' } as const
const ping = defineOperation({ ...base, id: 'ping', status: 201, response: z.object({ pong: z.boolean() }) })
const remove = defineOperation({ ...base, id: 'remove', status: 204 })
const download = defineOperation({ ...base, id: 'download', produces: 'text/plain' })
const context = { params: Promise.resolve({}) }

describe('route', () => {
  it('answers the data of the response schema as JSON with the operation status', async () => {
    const response = await route(ping, async ({ responseHeaders }) => {
      responseHeaders.set('x-test', 'yes')
      return { pong: true }
    })(new Request('http://localhost/api/test'), context)
    expect(response.status).toBe(201)
    expect(response.headers.get('x-test')).toBe('yes')
    expect(await response.json()).toEqual({ pong: true })
  })

  it('answers nothing with the operation status, and a file operation with its own Response', async () => {
    expect((await route(remove, async () => {})(new Request('http://localhost/api/test'), context)).status).toBe(204)
    const file = await route(download, async () => new Response('text'))(
      new Request('http://localhost/api/test'),
      context,
    )
    expect(await file.text()).toBe('text')
  })

  it('does not compile a handler whose result does not match its operation', () => {
    // @ts-expect-error pong must be a boolean
    route(ping, async () => ({ pong: 'yes' }))
    // @ts-expect-error a JSON operation answers its data, not any Response
    route(ping, async () => new Response('{}'))
    // @ts-expect-error a 204 operation answers nothing
    route(remove, async () => ({ removed: true }))
    // @ts-expect-error a file operation answers a Response
    route(download, async () => 'text')
  })
})
