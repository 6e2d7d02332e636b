// Where a move's CPU goes, by stage, from V8 CPU profiles (`node --cpu-prof`) of the server's
// processes: each sample in the window is charged to the first stage its stack names, walked from
// the running function towards the root; every thread but a process's main one is the engine.
// Used by bench/crowd.ts (CROWD_PROFILE=<dir>).
import fs from 'node:fs'
import path from 'node:path'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string }
  children?: number[]
}

interface Profile {
  nodes: ProfileNode[]
  startTime: number
  samples: number[]
  timeDeltas: number[]
}

export const STAGES = [
  'routing (Next)',
  'authentication',
  'validation',
  'database',
  'engine (worker threads)',
  'serialization',
  'logging',
  'metrics',
  'HTTP and streams',
  'our handlers',
  'garbage collection',
  'other',
] as const
type Stage = (typeof STAGES)[number]

/** Stages a frame names wherever it is on the stack: the nearest to the running function wins. */
const NAMED: [Stage, (frame: ProfileNode['callFrame']) => boolean][] = [
  ['logging', ({ url }) => /pino|thread-stream|sonic-boom/.test(url)],
  ['metrics', ({ url }) => /prom-client/.test(url)],
  ['database', ({ url }) => /pglite|prisma|node_modules\/pg|pg-protocol|graphile-worker/.test(url)],
  ['validation', ({ url, functionName }) => /zod/.test(url) || /_zod/.test(functionName)],
  ['authentication', ({ functionName }) => /^(authenticate|verifyToken|requireSessionPrincipal)$/.test(functionName)],
  ['serialization', ({ functionName }) => /^(writeStl|serializeMesh|parseBinaryStl|weld)$/.test(functionName)],
]

function stageOf(node: ProfileNode, parent: Map<number, ProfileNode>): Stage {
  const { functionName } = node.callFrame
  if (functionName === '(garbage collector)') return 'garbage collection'
  if (functionName === '(program)') return 'other'
  const stack: ProfileNode['callFrame'][] = []
  for (let frame: ProfileNode | undefined = node; frame; frame = parent.get(frame.id)) stack.push(frame.callFrame)
  for (const frame of stack) {
    const named = NAMED.find(([, names]) => names(frame))
    if (named) return named[0]
  }
  // Otherwise the nearest code of a known place: ours (the app's bundle, the project's files), or Next's runtime.
  for (const { url } of stack) {
    if (/next\/dist/.test(url)) return 'routing (Next)'
    if (url.startsWith('file://') && !url.includes('node_modules')) return 'our handlers'
  }
  return 'HTTP and streams'
}

/** CPU ms per stage over the window [fromUs, toUs] (process.hrtime in µs, the profiles' clock), of every profile in `dir`. */
export function cpuByStage(dir: string, fromUs: number, toUs: number): Map<Stage, number> {
  const totals = new Map<Stage, number>(STAGES.map((stage) => [stage, 0]))
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    // CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile: thread 0 is the process's main thread.
    const mainThread = file.split('.')[4] === '0'
    const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Profile
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
    const parent = new Map<number, ProfileNode>()
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node)
    let time = profile.startTime
    profile.samples.forEach((id, index) => {
      time += profile.timeDeltas[index]!
      const node = nodes.get(id)!
      if (time < fromUs || time > toUs || node.callFrame.functionName === '(idle)') return
      const spent = (profile.timeDeltas[index + 1] ?? 0) / 1000
      const stage = mainThread ? stageOf(node, parent) : 'engine (worker threads)'
      totals.set(stage, totals.get(stage)! + spent)
    })
  }
  return totals
}
