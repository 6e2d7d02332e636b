// Untrusted programs (a native CAD engine, a slicer with a designer's profile, designers'
// JavaScript) run in bubblewrap sandboxes: their own user, mount, PID, network and IPC
// namespaces, only /usr of the host (read-only) and the folders each run is given, as a user
// that owns nothing on the host, with prlimit's limits inside. Relative imports: worker threads
// load it too.
import { spawn } from 'node:child_process'

export const BWRAP = '/usr/bin/bwrap'
export const PRLIMIT = '/usr/bin/prlimit'
/** `nobody`: the sandbox runs as a user that owns nothing on the host. */
const UNPRIVILEGED = 65534

/** A folder of the host seen inside the sandbox at `target`. */
export interface Mount {
  source: string
  target: string
  /** Only the run's output folder is. */
  writable?: boolean
}

/** bubblewrap's arguments for a sandbox of the host's /usr (read-only), its own /proc, /dev and /tmp, these mounts and no environment but HOME. */
export function sandboxArgs(mounts: Mount[]): string[] {
  return [
    ...['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'],
    ...['--ro-bind', '/usr', '/usr', '--symlink', 'usr/lib', '/lib', '--symlink', 'usr/lib64', '/lib64'],
    ...['--symlink', 'usr/bin', '/bin', '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp'],
    ...mounts.flatMap(({ source, target, writable }) => [writable ? '--bind' : '--ro-bind', source, target]),
    ...['--clearenv', '--setenv', 'HOME', '/tmp'],
  ]
}

/** Starts bubblewrap as the unprivileged user, in a process group of its own, so that a kill reaches what runs inside. */
export function spawnSandbox(args: string[]) {
  return spawn(BWRAP, args, {
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(process.getuid?.() === 0 && { uid: UNPRIVILEGED, gid: UNPRIVILEGED }),
  })
}

/** Kills the sandbox's process group; one that ended already is left. */
export function killSandbox(pid: number | undefined): void {
  try {
    process.kill(-pid!, 'SIGKILL')
  } catch {
    // ended already
  }
}

export interface SandboxEnded {
  code: number | null
  signal: NodeJS.Signals | null
  timedOut: boolean
  cancelled: boolean
}

/** What stopped a sandboxed run from outside or by its limits, if anything did: bubblewrap ends with 128 + the signal that ended the program. */
export function limitHit(ended: SandboxEnded): 'time' | 'output' | 'signal' | null {
  if (ended.timedOut || ended.signal === 'SIGXCPU' || ended.code === 128 + 24) return 'time'
  if (ended.signal === 'SIGXFSZ' || ended.code === 128 + 25) return 'output'
  if (ended.signal || (ended.code ?? 0) > 128) return 'signal'
  return null
}

/** Runs a sandbox to its end, each line it prints to `print`; killed at `timeLimitMs` or when `signal` aborts. */
export function runSandbox(
  args: string[],
  { timeLimitMs, signal, print }: { timeLimitMs: number; signal?: AbortSignal; print: (line: string) => void },
): Promise<SandboxEnded> {
  const child = spawnSandbox(args)
  child.stdin.end()
  let pending = ''
  const read = (chunk: Buffer) => {
    const lines = (pending + chunk.toString('utf8')).split('\n')
    pending = lines.pop()!
    lines.forEach(print)
  }
  child.stdout.on('data', read)
  child.stderr.on('data', read)
  let timedOut = false
  let cancelled = false
  const timer = setTimeout(() => {
    timedOut = true
    killSandbox(child.pid)
  }, timeLimitMs)
  const cancel = () => {
    cancelled = true
    killSandbox(child.pid)
  }
  signal?.addEventListener('abort', cancel, { once: true })
  return new Promise((resolve) => {
    child.on('error', (error) => print(`ERROR: the sandbox did not start: ${error.message}`))
    child.on('close', (code, endedBy) => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', cancel)
      if (pending) print(pending)
      resolve({ code, signal: endedBy, timedOut, cancelled })
    })
  })
}
