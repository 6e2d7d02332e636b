import { describe, expect, it } from 'vitest'
import { api } from '@/test/support/api-client'
import { expectArFiles } from '@/test/support/ar-files'

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="40mm" height="20mm" viewBox="0 0 40 20"><rect width="40" height="20"/></svg>'

describe('demo content', () => {
  it('seeds real demo configurators, each with an application, that build and together use every parameter kind', async () => {
    const { seedDemoContent } = await import('@/lib/demo/seed-demo-content')
    const { db } = await import('@/lib/db')
    const ids = await seedDemoContent()
    expect(ids.length).toBeGreaterThanOrEqual(3)
    expect(await seedDemoContent()).toEqual([])

    const kinds = new Set<string>()
    const presetNames: string[] = []
    for (const id of ids) {
      const application = await db.application.findFirstOrThrow({ where: { configuratorId: id } })
      // Each demo's customer page is offered to visitors on the landing page.
      expect(application.publicDemo).toBe(true)
      const headers = { 'x-api-key': application.key, origin: 'http://localhost:3000' }
      const { accessToken } = await (await api('POST', '/auth/anonymous', { headers })).json()
      const call = (method: string, path: string, body?: unknown) =>
        api(method, path, { token: accessToken, headers, body })
      const session = await (await call('POST', '/configsessions', { configuratorId: id })).json()
      const parameters = (await (await call('GET', `/configsessions/${session.id}/parameters`)).json()) as Record<
        string,
        { type: string; value: unknown; options?: { value: unknown }[]; group: string }
      >
      for (const parameter of Object.values(parameters)) {
        kinds.add(parameter.type === 'choice' ? `choice of ${typeof parameter.options?.[0]?.value}` : parameter.type)
        expect(parameter.group).not.toBe('')
      }
      const fileKey = Object.keys(parameters).find((key) => parameters[key]!.type === 'file')
      if (fileKey) {
        const upload = await api('POST', `/configsessions/${session.id}/files?name=logo.svg`, {
          token: accessToken,
          headers,
          body: SVG,
        })
        const { name: fileId } = await upload.json()
        expect(
          (await call('PUT', `/configsessions/${session.id}/parameters`, { [fileKey]: { value: fileId } })).status,
        ).toBe(200)
      }
      // Each preset the demo ships in its parameter set file applies without a warning and builds.
      const presets = (await (await call('GET', `/configsessions/${session.id}/presets`)).json()) as { name: string }[]
      presetNames.push(...presets.map((preset) => preset.name))
      for (const preset of presets) {
        const applied = await call('POST', `/configsessions/${session.id}/presets/${encodeURIComponent(preset.name)}`)
        expect(applied.status, `preset ${preset.name}`).toBe(200)
        expect(
          (await (await call('GET', `/configsessions/${session.id}/log`)).json()).error,
          `preset ${preset.name}`,
        ).toBe('')
      }
      const log = await (await call('GET', `/configsessions/${session.id}/log`)).json()
      expect(log.error, `demo ${id}`).toBe('')
      const info = await (await call('GET', `/configsessions/${session.id}/objectinfo`)).json()
      // A 2D demo (for cutting) has an area instead of a volume.
      expect(info.print.process === 'cut' ? info.area : info.volume).toBeGreaterThan(0)
      // Its AR files, fetched as a phone does (the modelKey, no header), read back by independent readers.
      const file = async (type: string) => {
        const model = await api('GET', `/configsessions/${session.id}/model?type=${type}&key=${session.modelKey}`)
        expect(model.status, `demo ${id}: ${type}`).toBe(200)
        return new Uint8Array(await model.arrayBuffer())
      }
      if (info.print.process === 'cut') expect(info.ar.possible).toBe(false)
      else {
        expect(info.ar, `demo ${id}`).toMatchObject({ possible: true, reason: null })
        await expectArFiles({ stl: await file('stl'), usdz: await file('usdz'), glb: await file('glb') })
      }
    }
    expect([...kinds].sort()).toEqual(['bool', 'choice of number', 'choice of string', 'file', 'float', 'string'])
    expect(presetNames).toEqual(['Keyring', 'Desk sign', 'Shelf, M5', 'Small, M3'])
  }, 120_000)
})
