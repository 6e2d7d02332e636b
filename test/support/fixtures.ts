import { ZErrorBody } from '@/lib/api/schemas'
import type { OperationBody } from '@/lib/endpoints/client'
import { expect } from 'vitest'
import { call, callJson, uniqueEmail } from './api-client'

export const PASSWORD = 'correct horse battery staple'

/** A new user of its own (unique email) and a fresh token for it. */
export async function signUp(role: 'admin' | 'designer' = 'designer') {
  const { createUser } = await import('@/lib/users/users')
  const email = uniqueEmail()
  const user = await createUser({ email, password: PASSWORD, role })
  const { accessToken } = await callJson('login', { body: { email, password: PASSWORD } })
  return { ...user, token: accessToken }
}

export async function createConfigurator(
  token: string,
  fields: Partial<OperationBody<'createConfigurator'>> = {},
): Promise<string> {
  return (await callJson('createConfigurator', { token, body: { name: 'Box', mainFile: 'main.scad', ...fields } })).UUID
}

export async function registerApplication(
  token: string,
  configuratorId: string,
  fields: Partial<OperationBody<'registerApplication'>> = {},
) {
  const { UUID } = await callJson('registerApplication', {
    params: { configuratorId },
    token,
    body: { name: 'Shop', domain: 'shop.example.com', ...fields },
  })
  return callJson('getApplication', { params: { applicationId: UUID }, token })
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

/** A configurator of its own owner with its main file (`configurator/main.scad` unless `fields` name another) = source, and an open session on it. */
export async function openSession(
  source: string | Uint8Array,
  fields: Partial<OperationBody<'createConfigurator'>> = {},
  extraFiles: Record<string, string | Uint8Array> = {},
) {
  const owner = await signUp()
  const configuratorId = await createConfigurator(owner.token, fields)
  for (const [path, body] of Object.entries({
    [`configurator/${fields.mainFile ?? 'main.scad'}`]: source,
    ...extraFiles,
  })) {
    expect(
      (
        await call('uploadConfiguratorFile', {
          params: { configuratorId, path: path.split('/') },
          token: owner.token,
          body,
        })
      ).status,
    ).toBe(202)
  }
  const session = await callJson('createSession', { token: owner.token, body: { configuratorId } })
  return { owner, configuratorId, session, token: owner.token }
}
