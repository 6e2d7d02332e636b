// Builds the app (`npm run build`) only when its inputs changed since the last successful build,
// so `npm start` reuses a build, and several instances started at once from one checkout wait
// for one build instead of each building into the same .next folder.
// `--force` builds whatever the stamp says (`npm test` wants a fresh build) and stamps it.
import '../lib/node-version-guard'
import { spawn, spawnSync } from 'node:child_process'
import { createHash, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

// What `next build` reads from the checkout; files only server.ts reads at run time (prisma/migrations,
// demo/) and tests are left out. lib/generated comes from the schema and the locked prisma version.
const INPUTS = [
  'app',
  'components',
  'lib',
  'public',
  'proxy.ts',
  'next.config.ts',
  'postcss.config.mjs',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
  'prisma/schema.prisma',
]
// In .next, so that a deleted or newly built .next (next build empties it first) has no stamp.
const STAMP = '.next/paraform-build-stamp'
// Outside .next, which the build empties while the lock is held.
const LOCK = 'node_modules/.cache/paraform/build.lock'
// Only the tests replace the build, with a fast command.
const BUILD_COMMAND = process.env.PARAFORM_BUILD_COMMAND ?? 'npm run build'

function inputFiles(): string[] {
  // Tracked and new (not ignored) files; outside a git checkout, every file under the inputs.
  const git = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...INPUTS], {
    encoding: 'utf8',
  })
  const files = git.status === 0 ? git.stdout.split('\0') : INPUTS.flatMap(filesUnder)
  return files.filter((file) => file && !/\.test\.tsx?$/.test(file) && fs.existsSync(file)).sort()
}

function filesUnder(input: string): string[] {
  if (!fs.existsSync(input)) return []
  if (!fs.statSync(input).isDirectory()) return [input]
  return fs
    .readdirSync(input, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
}

/** Contents, not modification times: a checkout or `touch` that changes nothing builds nothing. */
function fingerprint(): string {
  const hash = createHash('sha256')
  for (const file of inputFiles())
    hash.update(`${file}\0${createHash('sha256').update(fs.readFileSync(file)).digest('hex')}\n`)
  return hash.digest('hex')
}

function readIfPresent(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Holds `file` exclusively until the returned function is called, waiting while a running process
 * holds it. The lock file holds "pid token" and is linked into place whole (never half written).
 * A holder that died without releasing it (SIGKILL, power loss) is seen at once by its pid, where
 * proper-lockfile's lock goes stale only after a timeout its holder must keep refreshing. Of the
 * waiters that see the holder dead, only the one that creates the marker named after its token
 * removes the lock, so none removes a newer holder's lock (the empty marker stays behind).
 * Pids are per machine: instances share a checkout on one machine (or in one container).
 */
async function lock(file: string): Promise<() => void> {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const draft = `${file}.${process.pid}`
  fs.writeFileSync(draft, `${process.pid} ${randomUUID()}`)
  try {
    for (let told = false; ; await sleep(100)) {
      try {
        fs.linkSync(draft, file)
        return () => fs.rmSync(file)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      }
      const [pid = '', token = ''] = readIfPresent(file)?.split(' ') ?? []
      if (!pid) continue
      if (isRunning(Number(pid))) {
        if (!told) console.log(`paraform: waiting for the build of process ${pid}`)
        told = true
      } else if (createExclusive(`${file}.broken-${token}`)) {
        fs.rmSync(file)
      }
    }
  } finally {
    fs.rmSync(draft)
  }
}

function createExclusive(file: string): boolean {
  try {
    fs.writeFileSync(file, '', { flag: 'wx' })
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
}

/** How the build ended; a signal to this process stops the build, whose end it waits for. */
function build(command: string): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  // Its own process group, so that a signal reaches npm, next build and their workers alike.
  const child = spawn(command, { shell: true, stdio: 'inherit', detached: true })
  const stop = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error // ended already
    }
  }
  process.on('SIGINT', stop).on('SIGTERM', stop)
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      process.off('SIGINT', stop).off('SIGTERM', stop)
      resolve({ code, signal })
    }),
  )
}

async function main(): Promise<number> {
  const release = await lock(LOCK)
  try {
    const wanted = fingerprint()
    if (!process.argv.includes('--force') && readIfPresent(STAMP) === wanted) {
      console.log('paraform: sources unchanged since the last build, reusing it')
      return 0
    }
    const started = Date.now()
    const { code, signal } = await build(BUILD_COMMAND)
    if (code !== 0) {
      console.error(`paraform: build failed (${signal ?? `exit code ${code}`})`)
      return code || 1
    }
    fs.mkdirSync(path.dirname(STAMP), { recursive: true })
    fs.writeFileSync(STAMP, wanted)
    console.log(`paraform: built the app in ${Math.round((Date.now() - started) / 1000)} s`)
    return 0
  } finally {
    release()
  }
}

process.exitCode = await main()
