import { ZErrorBody } from '@/lib/api/schemas'
import * as applications from '@/lib/applications/operations'
import * as auth from '@/lib/auth/operations'
import * as configurators from '@/lib/configurators/operations'
import * as sessions from '@/lib/sessions/operations'
import { expect } from 'vitest'
import { api, readBody, uniqueEmail } from './api-client'

export const PASSWORD = 'correct horse battery staple'

/** A new user of its own (unique email) and a fresh token for it. */
export async function signUp(role: 'admin' | 'designer' = 'designer') {
  const { createUser } = await import('@/lib/users/users')
  const email = uniqueEmail()
  const user = await createUser({ email, password: PASSWORD, role })
  const { accessToken } = await readBody(await api('POST', '/auth/login', { body: { email, password: PASSWORD } }), auth.login)
  return { ...user, token: accessToken }
}

export async function createConfigurator(token: string, fields: Record<string, unknown> = {}): Promise<string> {
  const response = await api('POST', '/configurators', { token, body: { name: 'Box', mainFile: 'main.scad', ...fields } })
  return (await readBody(response, configurators.createConfigurator)).UUID
}

export async function registerApplication(token: string, configuratorId: string, fields: Record<string, unknown> = {}) {
  const response = await api('POST', `/configurators/${configuratorId}/applications`, {
    token,
    body: { name: 'Shop', domain: 'shop.example.com', ...fields },
  })
  const { UUID } = await readBody(response, applications.registerApplication)
  return readBody(await api('GET', `/applications/${UUID}`, { token }), applications.getApplication)
}

export async function expectError(response: Response, status: number, code: string, message?: RegExp) {
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toMatch(/application\/json/)
  const body = ZErrorBody.parse(await response.json())
  expect(body.error.code).toBe(code)
  if (message) expect(body.error.message).toMatch(message)
  // Every 422 names its fields, each also in the sentence.
  if (status === 422) {
    expect(body.error.fields?.length).toBeGreaterThan(0)
    for (const field of body.error.fields ?? []) expect(body.error.message).toContain(field.message)
  }
  expect(JSON.stringify(body)).not.toMatch(/\n\s+at /)
  return body.error
}

/** A configurator of its own owner with `configurator/main.scad` = source, and an open session on it. */
export async function openSession(source: string | Uint8Array, fields: Record<string, unknown> = {}, extraFiles: Record<string, string | Uint8Array> = {}) {
  const owner = await signUp()
  const configuratorId = await createConfigurator(owner.token, fields)
  for (const [path, body] of Object.entries({ 'configurator/main.scad': source, ...extraFiles })) {
    expect((await api('PUT', `/configurators/${configuratorId}/files/${path}`, { token: owner.token, body })).status).toBe(202)
  }
  const session = await readBody(await api('POST', '/configsessions', { token: owner.token, body: { configuratorId } }), sessions.createSession)
  return { owner, configuratorId, session, token: owner.token }
}
