import { it } from 'vitest'
import { api } from '@/test/api-client'
import { openSession } from '@/test/fixtures'
it('debug', async () => {
  const { session, token } = await openSession('import("part.stl");')
  const r = await api('GET', `/configsessions/${session.id}/objectinfo`, { token })
  console.log('A', r.status, await r.text())
  const p = await api('GET', `/configsessions/${session.id}/parameters`, { token })
  console.log('P', p.status, await p.text())
  const { session: s2, token: t2 } = await openSession('cube(1);')
  const r2 = await api('GET', `/configsessions/${s2.id}/objectinfo`, { token: t2 })
  console.log('B', r2.status, await r2.text())
})
