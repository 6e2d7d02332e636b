import { it } from 'vitest'
import { api } from '@/test/api-client'
import { openSession } from '@/test/fixtures'

it('probe', async () => {
  for (const source of ['sphere(10);', 'cube(2);\n', 'x = 1;\ncube(2);\n', 'w = 1; // [1:5]\nsphere(10);']) {
    const { session, token } = await openSession(source)
    const put = await api('PUT', `/configsessions/${session.id}/parameters`, { token, body: {} })
    const params = await api('GET', `/configsessions/${session.id}/parameters`, { token })
    const info = await api('GET', `/configsessions/${session.id}/objectinfo`, { token })
    console.log(JSON.stringify(source), put.status, await put.text(), params.status, await params.text(), info.status, await info.text())
  }
}, 60_000)
