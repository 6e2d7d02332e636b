import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import { describe, expect, it } from 'vitest'
import type { BuildInput } from '@/lib/cad/engine'
import { nativeOpenscadEngine } from '@/lib/cad/openscad/native-engine'
import { probeBinary } from '@/lib/cad/openscad/native-openscad'

// The native engine behind the engine interface, through its worker threads and the pool's
// scheduling, with Debian's OpenSCAD as CI has it. Its worker threads read OPENSCAD_BINARY.
process.env.OPENSCAD_BINARY ??= '/usr/bin/openscad'
const engine = nativeOpenscadEngine(probeBinary(process.env.OPENSCAD_BINARY))

const SPIN =
  'function none() = [for (i = [0:999998]) for (j = [0:999998]) if (i * j < 0) i];\ncube(len(none()) + size);\n'

function input(source: string, overrides: Partial<BuildInput> = {}): BuildInput {
  return {
    files: [{ path: 'main.scad', data: new TextEncoder().encode(source) }],
    mainFile: 'main.scad',
    libraries: [],
    values: { size: 4, run: RUN },
    overrides: {},
    timeLimitMs: 20_000,
    memoryLimitBytes: 1 << 30,
    scheduling: { fairness: { turn: crypto.randomUUID(), exclusive: [], shared: [] } },
    ...overrides,
  }
}

// This file's engines by a value of their command line: other test files build natively at the same time.
const RUN = crypto.randomUUID()

/** This file's engines running now, each with the cores it may use. */
function runningEngines(): string[] {
  const pids = spawnSync('pgrep', ['-f', `^/engine/openscad .*${RUN}`], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean)
  return pids.flatMap((pid) => {
    try {
      return [/^Cpus_allowed_list:\s*(.+)$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]!]
    } catch {
      return [] // ended meanwhile
    }
  })
}

describe('the native engine behind the engine interface', () => {
  it('builds with the values and the quality overrides', async () => {
    const { mesh, log } = await engine.build(input('size = 10;\ncube([size, size, $fn]);\n', { overrides: { $fn: 3 } }))
    expect(log.error).toBe('')
    const positions = mesh!.parts.flatMap((part) => [...part.positions])
    expect(Math.max(...positions)).toBe(4)
    expect(Math.min(...positions.filter((_, k) => k % 3 === 2))).toBe(0)
  })

  it.runIf(os.availableParallelism() >= 2)('runs two builds at once on cores of their own', async () => {
    const controller = new AbortController()
    const builds = [0, 1].map(() =>
      engine
        .build(
          input(SPIN, {
            scheduling: {
              fairness: { turn: crypto.randomUUID(), exclusive: [], shared: [] },
              signal: controller.signal,
            },
          }),
        )
        .catch(() => undefined),
    )
    await expect.poll(runningEngines, { timeout: 10_000 }).toHaveLength(2)
    const cores = runningEngines()
    expect(cores.every((list) => /^\d+$/.test(list))).toBe(true)
    expect(new Set(cores).size).toBe(2)
    controller.abort(new Error('done'))
    await Promise.all(builds)
  })

  it('a cancelled build rejects with its reason and leaves no engine running', async () => {
    const controller = new AbortController()
    const build = engine.build(
      input(SPIN, {
        scheduling: { fairness: { turn: 'cancel', exclusive: [], shared: [] }, signal: controller.signal },
      }),
    )
    await expect.poll(runningEngines, { timeout: 10_000 }).toHaveLength(1)
    controller.abort(new Error('superseded'))
    await expect(build).rejects.toThrow('superseded')
    await expect.poll(runningEngines, { timeout: 5_000 }).toEqual([])
    // Its run's folder went with it, although its worker thread was stopped before it could remove it.
    expect(fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith(`paraform-build-${process.pid}-`))).toEqual([])
  })

  it('stops a build at its time limit with a log line, and leaves no engine running', async () => {
    const { mesh, log } = await engine.build(input(SPIN, { timeLimitMs: 1500 }))
    expect(mesh).toBeNull()
    expect(log.error).toMatch(/^ERROR: the build was stopped after (its|the) time limit of 1\.5 s$/m)
    await expect.poll(runningEngines, { timeout: 5_000 }).toEqual([])
  })
})
