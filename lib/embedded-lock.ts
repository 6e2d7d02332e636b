import fs from 'node:fs'
import path from 'node:path'

// One process at a time opens the embedded database. PGlite assumes it is alone with its
// directory: an admin command that opened it beside the running server once left a database
// that never started again. The lock is a file naming its holder, taken with an exclusive
// create; a holder that is gone (killed, the machine restarted) leaves a file whose process no
// longer runs, and the next opener takes it over.

export interface LockHolder {
  pid: number
  /** When the holder took the lock, ISO 8601. */
  since: string
  /** The holder's command line, shortened. */
  command: string
  /** Where the holder serves the API, once it listens (a server). */
  url?: string
}

export class DatabaseInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `the embedded database in ${dir} is in use by process ${holder.pid} (${holder.command}) since ${holder.since}; ` +
        'PGlite allows one process: stop that one first, or work through it (its API, the studio, or `npm run library`, which uses a running server)',
    )
  }
}

const LOCK_FILE = 'db.lock'

function lockPath(dataDir: string): string {
  return path.join(dataDir, LOCK_FILE)
}

function readHolder(file: string): LockHolder | null {
  try {
    const holder = JSON.parse(fs.readFileSync(file, 'utf8')) as LockHolder
    return Number.isInteger(holder.pid) ? holder : null
  } catch {
    // Gone meanwhile, or half written by a holder killed while it took the lock.
    return null
  }
}

/** Whether `pid` is a running Node process (a reused pid of another program is no holder). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node')
  } catch {
    return true
  }
}

let held: { file: string; holder: LockHolder } | undefined

/**
 * Takes the embedded database of `dataDir` for this process, or throws DatabaseInUseError
 * naming the process that has it. Released when this process exits.
 */
export function lockEmbeddedDatabase(dataDir: string): void {
  const file = lockPath(dataDir)
  if (held?.file === file) return
  const holder: LockHolder = { pid: process.pid, since: new Date().toISOString(), command: commandLine() }
  fs.mkdirSync(dataDir, { recursive: true })
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(holder), { flag: 'wx' })
      held = { file, holder }
      process.on('exit', () => readHolder(file)?.pid === process.pid && fs.rmSync(file, { force: true }))
      return
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const current = readHolder(file)
    // The same pid is this process: a container restarted gives its server the pid it had.
    if (current && current.pid !== process.pid && isRunning(current.pid)) throw new DatabaseInUseError(dataDir, current)
    fs.rmSync(file, { force: true })
  }
  throw new Error(`another process took ${file} at the same moment`)
}

/** Tells later openers where the holding server serves its API. */
export function recordServerUrl(url: string): void {
  if (!held) return
  held.holder.url = url
  fs.writeFileSync(held.file, JSON.stringify(held.holder))
}

/** The process holding the embedded database of `dataDir`, if one runs. */
export function embeddedDatabaseHolder(dataDir: string): LockHolder | null {
  const holder = readHolder(lockPath(dataDir))
  return holder && holder.pid !== process.pid && isRunning(holder.pid) ? holder : null
}

function commandLine(): string {
  const command = process.argv
    .slice(1)
    .map((arg) => path.relative(process.cwd(), arg) || arg)
    .join(' ')
  return command.length > 80 ? `${command.slice(0, 77)}...` : command
}
