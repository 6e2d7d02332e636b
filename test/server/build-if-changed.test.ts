import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

// scripts/build-if-changed.ts run as `npm start` runs it, in a small checkout of its own, with a
// fake build that counts its runs in builds.log (next build takes a minute).

const ROOT = path.resolve(import.meta.dirname, '../..')
const TSX = path.join(ROOT, 'node_modules/.bin/tsx')
const SCRIPT = path.join(ROOT, 'scripts/build-if-changed.ts')
const FAKE_BUILD = 'echo built >> builds.log'
const STAMP = '.next/paraform-build-stamp'
const LOCK = 'node_modules/.cache/paraform/build.lock'

interface Ended {
  code: number | null
  output: string
}

function start(dir: string, build = FAKE_BUILD, args: string[] = []) {
  const child = spawn(TSX, [SCRIPT, ...args], {
    cwd: dir,
    env: { ...process.env, PARAFORM_BUILD_COMMAND: build },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const ended = new Promise<Ended>((resolve) => child.on('exit', (code) => resolve({ code, output })))
  return { child, ended, output: () => output }
}

const run = (dir: string, build?: string, args?: string[]) => start(dir, build, args).ended

function builds(dir: string): number {
  const log = path.join(dir, 'builds.log')
  return fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0
}

function write(dir: string, file: string, text: string) {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
  fs.writeFileSync(path.join(dir, file), text)
}

const checkouts: string[] = []
afterAll(() => checkouts.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })))

/** A checkout with one page, under git (files added, nothing committed) unless told otherwise. */
function checkout({ git = true } = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paraform-build-'))
  checkouts.push(dir)
  write(dir, 'app/page.tsx', 'export default function Page() { return null }\n')
  write(dir, 'package.json', '{}\n')
  if (git) {
    for (const args of [
      ['init', '-q'],
      ['add', '.'],
    ])
      expect(spawnSync('git', args, { cwd: dir }).status).toBe(0)
  }
  return dir
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50))
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('build-if-changed', () => {
  it('builds once, then reuses the build while the inputs are unchanged; --force builds anyway', async () => {
    const dir = checkout()
    const first = await run(dir)
    expect(first).toMatchObject({ code: 0 })
    expect(first.output).toMatch(/paraform: built the app in \d+ s/)
    expect(fs.existsSync(path.join(dir, STAMP))).toBe(true)
    const second = await run(dir)
    expect(second).toMatchObject({ code: 0 })
    expect(second.output).toContain('paraform: sources unchanged since the last build, reusing it')
    expect(builds(dir)).toBe(1)
    expect(await run(dir, FAKE_BUILD, ['--force'])).toMatchObject({ code: 0 })
    expect(builds(dir)).toBe(2)
    expect(fs.existsSync(path.join(dir, LOCK))).toBe(false)
  })

  for (const git of [true, false]) {
    it(`rebuilds when an input changes, appears or goes away, not for tests or other files (${git ? 'git checkout' : 'no git'})`, async () => {
      const dir = checkout({ git })
      await run(dir)
      const steps: [string, () => void, number][] = [
        ['edited page', () => write(dir, 'app/page.tsx', 'export default function Page() { return "changed" }\n'), 2],
        ['new file', () => write(dir, 'lib/new.ts', 'export const added = 1\n'), 3],
        ['deleted file', () => fs.rmSync(path.join(dir, 'lib/new.ts')), 4],
        ['test file', () => write(dir, 'app/page.test.ts', 'export {}\n'), 4],
        ['file outside the inputs', () => write(dir, 'README.md', 'notes\n'), 4],
        [
          'same contents written again',
          () => write(dir, 'app/page.tsx', 'export default function Page() { return "changed" }\n'),
          4,
        ],
      ]
      for (const [step, change, expected] of steps) {
        change()
        expect(await run(dir), step).toMatchObject({ code: 0 })
        expect(builds(dir), step).toBe(expected)
      }
    })
  }

  it('started three times at once, builds once: the others wait for it and reuse it', async () => {
    const dir = checkout()
    // Runs until the test has seen the other two wait for it.
    const heldBuild = `${FAKE_BUILD} && while [ ! -e release ]; do sleep 0.1; done`
    const started = [start(dir, heldBuild), start(dir, heldBuild), start(dir, heldBuild)]
    await until(
      () => started.filter(({ output }) => output().includes('waiting for the build of process')).length === 2,
    )
    write(dir, 'release', '')
    const ended = await Promise.all(started.map(({ ended }) => ended))
    expect(ended.map(({ code }) => code)).toEqual([0, 0, 0])
    expect(builds(dir)).toBe(1)
    const outputs = ended.map(({ output }) => output)
    expect(outputs.filter((output) => output.includes('built the app'))).toHaveLength(1)
    expect(outputs.filter((output) => output.includes('reusing it'))).toHaveLength(2)
  })

  it('a failed build leaves no stamp and exits non-zero; the next start builds again', async () => {
    const dir = checkout()
    const failed = await run(dir, 'echo built >> builds.log && exit 3')
    expect(failed.code).toBe(3)
    expect(failed.output).toContain('paraform: build failed (exit code 3)')
    expect(fs.existsSync(path.join(dir, STAMP))).toBe(false)
    expect(fs.existsSync(path.join(dir, LOCK))).toBe(false)
    expect(await run(dir)).toMatchObject({ code: 0 })
    expect(builds(dir)).toBe(2)
  })

  it('takes over the lock of a process that died holding it', async () => {
    const dir = checkout()
    const dead = spawnSync(process.execPath, ['-e', '']).pid
    expect(isRunning(dead)).toBe(false)
    write(dir, LOCK, `${dead} 00000000-0000-0000-0000-000000000000`)
    expect(await run(dir)).toMatchObject({ code: 0 })
    expect(builds(dir)).toBe(1)
  })

  it('SIGTERM during the build stops the build, releases the lock, leaves no stamp', async () => {
    const dir = checkout()
    const { child, ended } = start(dir, 'echo $$ > build.pid && sleep 60')
    const pidFile = path.join(dir, 'build.pid')
    await until(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() !== '')
    child.kill('SIGTERM')
    const { code, output } = await ended
    expect(code, output).not.toBe(0)
    expect(isRunning(Number(fs.readFileSync(pidFile, 'utf8')))).toBe(false)
    expect(fs.existsSync(path.join(dir, STAMP))).toBe(false)
    expect(fs.existsSync(path.join(dir, LOCK))).toBe(false)
  })
})
