import fs from 'node:fs'

// The machine's CPU as /proc/stat counts it: for benchmarks that report how busy it was, and for
// suites that wait until a server they started has settled before they time or drive it.

/** /proc counts CPU time in ticks of 10 ms (USER_HZ 100). */
const MS_PER_TICK = 10

/** The machine's CPU time so far (all cores, from /proc/stat): busy and idle, in ms. */
export function machineCpu(): { busy: number; idle: number } {
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0] = fs
    .readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .split(/\s+/)
    .slice(1)
    .map(Number)
  return { busy: (user + nice + system + irq + softirq) * MS_PER_TICK, idle: (idle + iowait) * MS_PER_TICK }
}

/** Of the machine's CPU time since `before`, the share that was busy. */
export function busyShare(before: { busy: number; idle: number }): number {
  const now = machineCpu()
  const busy = now.busy - before.busy
  return busy / (busy + now.idle - before.idle)
}

/**
 * Waits until the machine spends less than a quarter of its CPU for a second (at most `limitMs`),
 * so that what a process does once after it starts (booting replicad sandboxes, their warm-up
 * builds) is not timed as part of the work measured next; answers how long that took.
 */
export async function settledMachine(limitMs = 60_000): Promise<number> {
  const started = performance.now()
  for (;;) {
    const before = machineCpu()
    await new Promise((resolve) => setTimeout(resolve, 1000))
    if (busyShare(before) < 0.25 || performance.now() - started > limitMs) return performance.now() - started
  }
}

/** V8's and Node's names for a process's threads (/proc/<pid>/task/<tid>/comm), by what runs there. */
export const THREAD_KINDS = {
  'node-MainThread': 'main thread',
  WorkerThread: 'worker threads',
  'node-V8Worker': "V8's helper threads",
} as const
export type ThreadKind = (typeof THREAD_KINDS)[keyof typeof THREAD_KINDS] | 'other threads'

/** A file of /proc, or nothing once the process or thread it describes has ended. */
function readProc(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}

const threadsOf = (pid: number) => {
  try {
    return fs.readdirSync(`/proc/${pid}/task`).map((tid) => `/proc/${pid}/task/${tid}`)
  } catch {
    return []
  }
}

/** The process and all its descendants. */
function processTree(pid: number): number[] {
  const children = threadsOf(pid).flatMap((thread) => readProc(`${thread}/children`).split(' ').filter(Boolean))
  return [pid, ...children.flatMap((child) => processTree(Number(child)))]
}

/** The CPU time so far (user and system, ms) of the processes `pids` and their descendants, by kind of thread. */
export function cpuByThread(pids: number[]): Map<ThreadKind, number> {
  const byKind = new Map<ThreadKind, number>()
  for (const thread of pids.flatMap(processTree).flatMap(threadsOf)) {
    const stat = readProc(`${thread}/stat`)
    if (!stat) continue
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
    // After the name, utime and stime are the 12th and 13th fields.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const kind: ThreadKind = THREAD_KINDS[name as keyof typeof THREAD_KINDS] ?? 'other threads'
    byKind.set(kind, (byKind.get(kind) ?? 0) + (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK)
  }
  return byKind
}
