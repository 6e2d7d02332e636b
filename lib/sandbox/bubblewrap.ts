// Untrusted programs (a native CAD engine, a slicer with a designer's profile, designers'
// JavaScript) run in bubblewrap sandboxes: their own user, mount, PID, network and IPC
// namespaces, only /usr of the host (read-only) and the folders each run is given, as a user
// that owns nothing on the host, with prlimit's limits inside. Relative imports: worker threads
// load it too.
import { spawn } from 'node:child_process'
import fs from 'node:fs'

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

/**
 * Whether background work is to stand still (a customer's build runs): set by the worker that
 * runs it, followed by the sandboxes it runs. Paused time does not count against a time limit.
 */
export class PauseSwitch extends EventTarget {
  paused = false

  set(paused: boolean): void {
    if (paused === this.paused) return
    this.paused = paused
    this.dispatchEvent(new Event('change'))
  }
}

/** The sandbox's processes: bubblewrap and all below it (the program runs in a session of its own, so no group holds them all). */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>()
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)])
    } catch {
      // ended meanwhile
    }
  }
  const tree = [root]
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []))
  return tree
}

const RESTOP_MS = 100

/** Stops or continues every process of the sandbox, the outermost first. */
function signalTree(root: number | undefined, signal: 'SIGSTOP' | 'SIGCONT'): void {
  if (root === undefined) return
  for (const pid of processTree(root)) {
    try {
      process.kill(pid, signal)
    } catch {
      // ended meanwhile
    }
  }
}

/** Runs a sandbox to its end, each line it prints to `print`; killed at `timeLimitMs` (paused time not counted) or when `signal` aborts. */
export function runSandbox(
  args: string[],
  {
    timeLimitMs,
    signal,
    print,
    pauses,
  }: { timeLimitMs: number; signal?: AbortSignal; print: (line: string) => void; pauses?: PauseSwitch },
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
  let remainingMs = timeLimitMs
  let runningSince = performance.now()
  const kill = () => {
    timedOut = true
    killSandbox(child.pid)
  }
  let timer: NodeJS.Timeout | undefined = setTimeout(kill, remainingMs)
  // Stopped again and again while paused: a process the sandbox was forking meanwhile stops too.
  let stopping: NodeJS.Timeout | undefined
  const follow = () => {
    if (pauses!.paused === (timer === undefined)) return
    if (pauses!.paused) {
      clearTimeout(timer)
      timer = undefined
      remainingMs -= performance.now() - runningSince
      signalTree(child.pid, 'SIGSTOP')
      stopping = setInterval(() => signalTree(child.pid, 'SIGSTOP'), RESTOP_MS)
    } else {
      clearInterval(stopping)
      runningSince = performance.now()
      timer = setTimeout(kill, remainingMs)
      signalTree(child.pid, 'SIGCONT')
    }
  }
  pauses?.addEventListener('change', follow)
  if (pauses?.paused) follow()
  const cancel = () => {
    cancelled = true
    killSandbox(child.pid)
  }
  signal?.addEventListener('abort', cancel, { once: true })
  return new Promise((resolve) => {
    child.on('error', (error) => print(`ERROR: the sandbox did not start: ${error.message}`))
    child.on('close', (code, endedBy) => {
      clearTimeout(timer)
      clearInterval(stopping)
      pauses?.removeEventListener('change', follow)
      signal?.removeEventListener('abort', cancel)
      if (pending) print(pending)
      resolve({ code, signal: endedBy, timedOut, cancelled })
    })
  })
}
