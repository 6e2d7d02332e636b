import { describe, expect, it } from 'vitest'
import * as operations from '@/lib/capabilities/operations'
import { api, readBody } from '@/test/support/api-client'
import { createConfigurator, expectError, signUp } from '@/test/support/fixtures'

describe('capabilities', () => {
  it('lists the CAD engines and renderers a configurator may name', async () => {
    const designer = await signUp()
    const capabilities = await readBody(
      await api('GET', '/capabilities', { token: designer.token }),
      operations.getCapabilities,
    )
    // The embedded engine, and the native one the API suite is given (OPENSCAD_BINARY, vitest.config.ts).
    const [native] = capabilities.cad[0]!.versions.slice(1)
    expect(capabilities.cad).toEqual([
      {
        type: 'openscad',
        versions: ['2025.07', expect.stringMatching(/^\d{4}\.\d{2}.*-native$/)],
        default: Number(native!.slice(0, 4)) >= 2024 ? native : '2025.07',
        modelTypes: ['stl', '3mf', 'glb', 'usdz', 'off', 'svg', 'dxf'],
      },
      {
        type: 'replicad',
        versions: ['1.1'],
        default: '1.1',
        modelTypes: ['stl', '3mf', 'glb', 'usdz', 'off', 'step', 'svg', 'dxf'],
      },
    ])
    expect(capabilities.renderers.map((renderer) => renderer.type)).toEqual(['webgl', 'headless'])

    // Every listed combination is one the configurator API accepts.
    const id = await createConfigurator(designer.token)
    for (const cad of capabilities.cad) {
      for (const cadVersion of cad.versions) {
        for (const renderer of capabilities.renderers) {
          const update = await api('PUT', `/configurators/${id}`, {
            token: designer.token,
            body: {
              cadType: cad.type,
              cadVersion,
              rendererType: renderer.type,
              rendererVersion: renderer.versions.at(-1),
            },
          })
          expect(update.status).toBe(200)
        }
      }
    }
  })

  it('needs a signed-in user', async () => {
    await expectError(await api('GET', '/capabilities'), 401, 'unauthorized')
  })

  it('is described in the OpenAPI document', async () => {
    const document = (await (await api('GET', '/openapi.json')).json()) as {
      paths: Record<string, { get?: { operationId: string } }>
    }
    expect(document.paths['/capabilities']?.get?.operationId).toBe('getCapabilities')
  })
})
