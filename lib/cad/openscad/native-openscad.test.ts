import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ModelFile } from '@/lib/cad/engine'
import { type NativeRun, probeBinary, runNative } from '@/lib/cad/openscad/native-openscad'
import { parseBinaryStl } from '@/lib/cad/mesh/parse-stl'
import { measureMesh } from '@/lib/cad/mesh/measure-mesh'
import type { OpenscadJob } from '@/lib/cad/openscad/openscad-job'
import { runJob } from '@/lib/cad/openscad/openscad-runs'

// The sandboxed child-process engine with Debian's own OpenSCAD (2021.01), as CI runs it: every
// way out of the sandbox this test knows ends as a failed build whose log holds nothing of the host.
const BINARY = process.env.OPENSCAD_BINARY ?? '/usr/bin/openscad'
const binary = probeBinary(BINARY)
const HOST_SECRET = `paraform-host-secret-${process.pid}`
process.env.PARAFORM_TEST_SECRET = HOST_SECRET

const text = (source: string) => new TextEncoder().encode(source)
const RUN = crypto.randomUUID()

function model(
  source: string,
  options: Partial<NativeRun> & { extra?: ModelFile[] } = {},
): Promise<Awaited<ReturnType<typeof runNative>>> {
  const { extra = [], ...run } = options
  return runNative(binary, {
    files: [{ path: 'main.scad', data: text(source) }, ...extra],
    mainFile: 'main.scad',
    libraries: [],
    fonts: [],
    defines: [`run="${RUN}"`],
    format: 'binstl',
    timeLimitMs: 20_000,
    memoryLimitBytes: 1 << 30,
    ...run,
  })
}

/** Nothing of the host's files or environment in what the run answered. */
function expectNothingOfTheHost(result: Awaited<ReturnType<typeof runNative>>) {
  const answered =
    result.log.message + result.log.error + new TextDecoder('latin1').decode(result.output ?? new Uint8Array())
  expect(answered).not.toContain('root:')
  expect(answered).not.toContain(os.hostname())
  expect(answered).not.toContain(HOST_SECRET)
}

describe('the native OpenSCAD engine in its sandbox', () => {
  it('builds a model with its values, its own files beside it and its library, and names file and line in the log', async () => {
    const result = await model('use <parts/leg.scad>\nsize = 10;\nleg(size);\n\necho(undefined_thing);\n', {
      defines: ['size=12', `run="${RUN}"`],
      extra: [
        { path: 'parts/leg.scad', data: text('include <Shelf/std.scad>\nmodule leg(h) cube([shelf_depth, 2, h]);\n') },
      ],
      libraries: [{ path: 'Shelf/std.scad', data: text('shelf_depth = 5;\n') }],
    })
    expect(result.exitCode).toBe(0)
    const { boundingBox, volume } = measureMesh(parseBinaryStl(result.output!))
    expect(boundingBox).toEqual({ minX: 0, maxX: 5, minY: 0, maxY: 2, minZ: 0, maxZ: 12 })
    expect(volume).toBeCloseTo(120, 6)
    expect(result.log.error).toMatch(
      /WARNING: Ignoring unknown variable ["']undefined_thing["'] in file main\.scad, line 5/,
    )
  })

  it.each([
    ['import() with an absolute path', 'import("/etc/passwd.stl");'],
    ['import() up out of the model', 'import("../../../../../etc/passwd.stl");'],
    ['surface() of a host file', 'surface(file = "/etc/hostname");'],
    ['surface() of the process environment', 'surface(file = "/proc/self/environ");'],
    ['include <...> with an absolute path', 'include </etc/passwd>'],
    ['use <...> up out of the model', 'use <../../../../../etc/passwd>\nroot();'],
    ['a library of the host that was not installed', 'use <MCAD/involute_gears.scad>\ngear(number_of_teeth = 10);'],
  ])('%s: a failed build, nothing of the host in it', async (_, source) => {
    const result = await model(source)
    expect(result.output ?? new Uint8Array()).toHaveLength(0)
    expect(result.log.error).toMatch(/WARNING|ERROR|Current top level object is empty/)
    expectNothingOfTheHost(result)
  })

  it('stops an endless loop at the time limit, and the next build runs as usual', async () => {
    const started = Date.now()
    const endless = await model(
      'function none() = [for (i = [0:999998]) for (j = [0:999998]) if (i * j < 0) i];\ncube(len(none()));',
      { timeLimitMs: 1500 },
    )
    expect(Date.now() - started).toBeLessThan(5000)
    expect(endless.output).toBeUndefined()
    expect(endless.log.error).toContain('ERROR: the build was stopped after its time limit of 1.5 s')
    await expect.poll(hasNoSandboxLeft).toBe(true)
    expect((await model('cube(3);')).exitCode).toBe(0)
  })

  it('refuses more memory than its limit: a 4 GB list', async () => {
    const result = await model('x = [for (i = [0:999998]) [for (j = [0:499]) i]];\ncube(len(x));', {
      memoryLimitBytes: 512 * 1024 * 1024,
    })
    expect(result.output).toBeUndefined()
    expect(result.log.error).toContain('ERROR: the build needed more than its memory limit of 512 MB')
  })

  it('refuses an output larger than its limit', async () => {
    const result = await model('sphere(10, $fn = 600);', { outputLimitBytes: 1024 * 1024 })
    expect(result.output).toBeUndefined()
    expect(result.log.error).toContain("ERROR: the model's output was larger than its limit of 1 MB")
  })

  it('ends at once when cancelled: the run rejects with the reason, and no process is left', async () => {
    const controller = new AbortController()
    setTimeout(() => controller.abort(new Error('superseded')), 300)
    await expect(
      model('function none() = [for (i = [0:999998]) for (j = [0:999998]) if (i * j < 0) i];\ncube(len(none()));', {
        signal: controller.signal,
      }),
    ).rejects.toThrow('superseded')
    await expect.poll(hasNoSandboxLeft).toBe(true)
  })

  it('refuses a file path that leaves the model', async () => {
    const result = await model('cube(1);', { extra: [{ path: '../escape.scad', data: text('cube(1);') }] })
    expect(result.output).toBeUndefined()
    expect(result.log.error).toBe(
      "ERROR: could not place the model's files: ../escape.scad is not a path inside the model",
    )
  })
})

describe('a binary that crashes or writes garbage', () => {
  // It says it is OpenSCAD; then a model naming `crash` makes it die of a segmentation fault,
  // and any other gets random bytes as its STL.
  const FAKE = `#!/bin/sh
case "$1" in --version|--help) echo "OpenSCAD version 2099.01.01" >&2; exit 0;; esac
for arg in "$@"; do [ "$previous" = "-o" ] && out="$arg"; previous="$arg"; done
grep -q crash "$1" && kill -SEGV $$
head -c 1000 /dev/urandom > "$out"
`

  it.each([
    ['crash();', /^ERROR: the CAD engine stopped \(signal 11\)$/m],
    ['cube(1);', /^ERROR: the CAD engine wrote a model that cannot be read \(STL: 1000 bytes for \d+ triangles/m],
  ])('%s is a failed build with a log line, never a thrown error', async (source, why) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paraform-binary-'))
    try {
      // The sandbox's user must reach it.
      fs.chmodSync(dir, 0o755)
      fs.writeFileSync(path.join(dir, 'openscad'), FAKE, { mode: 0o755 })
      const fake = probeBinary(path.join(dir, 'openscad'))
      const job: OpenscadJob = {
        kind: 'build',
        files: [{ path: 'main.scad', data: text(source) }],
        mainFile: 'main.scad',
        libraries: [],
        fonts: [],
        defines: [],
        memoryLimitBytes: 1 << 30,
      }
      const result = await runJob(job, (run, format, input) =>
        runNative(fake, { ...run, fonts: [], format, input, timeLimitMs: 20_000 }),
      )
      expect(result.mesh).toBeUndefined()
      expect(result.log.error).toMatch(why)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('probeBinary', () => {
  it('names the binary and why it cannot be used: missing, not executable, not OpenSCAD', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paraform-binary-'))
    const plain = path.join(dir, 'openscad')
    fs.writeFileSync(plain, '#!/bin/sh\necho hello\n', { mode: 0o644 })
    try {
      expect(() => probeBinary(path.join(dir, 'missing'))).toThrow(`OPENSCAD_BINARY=${dir}/missing: no such file`)
      expect(() => probeBinary(plain)).toThrow(`OPENSCAD_BINARY=${plain}: not executable`)
      fs.chmodSync(plain, 0o755)
      expect(() => probeBinary(plain)).toThrow(`OPENSCAD_BINARY=${plain}: not OpenSCAD`)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
    expect(binary.version).toMatch(/^\d{4}\.\d{2}/)
  })
})

/** No engine of this file's runs still runs (found by a value of their command line: other test files build natively too). */
function hasNoSandboxLeft(): boolean {
  return !spawnSync('pgrep', ['-f', `^/engine/openscad .*${RUN}`], { encoding: 'utf8' }).stdout.trim()
}
