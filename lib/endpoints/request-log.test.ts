import { describe, expect, it } from 'vitest'
import { operationOf } from '@/lib/endpoints/request-log'
import { ROUTES } from '@/lib/endpoints/routes'

describe('the operation a request reached, as metrics and log lines name it', () => {
  it('finds every operation by its method and a path with its parameters filled in', () => {
    for (const [id, { method, path }] of Object.entries(ROUTES)) {
      const filled = path.replace('{path}', 'renderer/textures/wood.png').replace(/\{\w+\}/g, 'c0ffee')
      expect(operationOf(method, `/api${filled}`), `${method} ${path}`).toBe(id)
    }
  })

  it('takes both spellings of the session collection, and names what is no operation without its path', () => {
    expect(operationOf('GET', '/api/configSessions/abc/model')).toBe('getModel')
    expect(operationOf('GET', '/api/configsessions/abc/model')).toBe('getModel')
    expect(operationOf('PATCH', '/api/configsessions/abc/model')).toBe('unknown')
    expect(operationOf('GET', '/api/no/such/thing')).toBe('unknown')
    expect(operationOf('GET', '/studio/configurators/abc')).toBe('page')
    expect(operationOf('GET', '/_next/static/chunks/main.js')).toBe('asset')
    expect(operationOf('GET', '/metrics')).toBe('metrics')
  })
})
