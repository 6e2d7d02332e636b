// A worker thread that builds replicad models in a sandbox of its own (replicad-sandbox.ts),
// started once and kept warm. Started by lib/cad/worker-pool.ts for replicad-engine.ts; the
// pool's time limit ends the thread, and with it the sandbox. Relative imports: a worker thread.
import { Color, SRGBColorSpace } from 'three'
import { parentPort } from 'node:worker_threads'
import type { EngineLog } from '../engine'
import { env } from '../../env'
import type { Mesh, Rgba } from '../mesh/mesh'
import { measurePrint, weld } from '../mesh/printability'
import { meshBuffers, WORKER_READY } from '../worker-pool'
import type { ReplicadJob, ReplicadJobResult } from './replicad-job'
import { type BuildAnswer, type Drawing2d, type ReplicadSandbox, startSandbox } from './replicad-sandbox'
import { flatPart } from '../mesh/flat-outline'
import { contoursOfPathData } from '../mesh/path-data'

if (!parentPort) throw new Error('replicad-worker must run in a worker thread')
const port = parentPort

/** A part the model gave no colour: replicad's workbench grey. */
const DEFAULT_COLOR: Rgba = [0.6, 0.6, 0.6, 1]
/** The sandbox's own time limit, past the pool's: the pool ends the thread first, and the sandbox with it. */
const UNLIMITED_MS = 24 * 60 * 60 * 1000

let sandbox: { memoryLimitBytes: number; started: Promise<ReplicadSandbox> } | undefined

/** The sandbox for this memory limit: the warm one, or a new one when the limit differs. */
function sandboxFor(memoryLimitBytes: number): Promise<ReplicadSandbox> {
  if (sandbox?.memoryLimitBytes !== memoryLimitBytes) {
    void sandbox?.started.then((old) => old.close())
    sandbox = { memoryLimitBytes, started: startSandbox({ memoryLimitBytes }) }
  }
  return sandbox.started
}

function colorOf(css: string | undefined): Rgba {
  if (!css) return DEFAULT_COLOR
  const color = new Color()
  color.setStyle(css, SRGBColorSpace)
  const { r, g, b } = color.getRGB(new Color(), SRGBColorSpace)
  return [r, g, b, 1]
}

/** Console output in `message`; errors and warnings in `error`, as OpenSCAD's log keeps them. */
function logOf(lines: string[]): EngineLog {
  const isProblem = (line: string) => /^(ERROR|WARNING):/.test(line)
  return {
    message: lines.filter((line) => !isProblem(line)).join('\n'),
    error: lines.filter(isProblem).join('\n'),
  }
}

/** A drawing's paths as replicad writes them for SVG (Y down) read back into a flat mesh (lib/cad/mesh/flat-outline.ts). */
function flatMeshOf({ svgPaths }: Drawing2d): Mesh {
  const contours = svgPaths
    .flat()
    .flatMap((data) => contoursOfPathData(data))
    .map((contour) => contour.map(([x, y]): [number, number] => [x, -y]))
  return { parts: [flatPart(contours, DEFAULT_COLOR)] }
}

function meshOf(answer: BuildAnswer): Mesh | undefined {
  if (answer.ok && answer.drawing) return flatMeshOf(answer.drawing)
  if (!answer.ok || !answer.parts) return undefined
  // OpenCascade meshes each face on its own: the faces' shared edges are joined into one closed solid per part.
  return {
    parts: answer.parts.map(({ name, color, positions, indices }) => ({
      color: colorOf(color),
      name,
      ...weld({ parts: [{ color: DEFAULT_COLOR, positions, indices }] }),
    })),
  }
}

async function run(job: ReplicadJob): Promise<ReplicadJobResult> {
  if (job.kind === 'parts') {
    // A replicad build's parts are closed solids that share nothing (sandbox-process.ts): measured as they are.
    return { mesh: job.union, print: measurePrint(job.union, job.union), log: { message: '', error: '' } }
  }
  const { kind, memoryLimitBytes, ...input } = job
  const built = await sandboxFor(memoryLimitBytes)
  const request = { ...input, angularTolerance: (input.angularTolerance * Math.PI) / 180 }
  if (kind === 'step') {
    const answer = await built.step(request, UNLIMITED_MS)
    return { log: logOf(answer.log), ...(answer.ok && { step: answer.step }) }
  }
  if (kind === 'parameters') {
    const answer = await built.parameters(request, UNLIMITED_MS)
    return { log: logOf(answer.log), defaultParams: answer.defaultParams, parameters: answer.parameters }
  }
  const answer = await built.build(request, UNLIMITED_MS)
  const mesh = meshOf(answer)
  if (!mesh && !answer.log.some((line) => line.startsWith('ERROR:')))
    answer.log.push('ERROR: the model gave no shape to show')
  return { log: logOf(answer.log), mesh, defaultParams: answer.defaultParams, parameters: answer.parameters }
}

port.on('message', (job: ReplicadJob) => {
  void run(job).then((result) => {
    port.postMessage(result, meshBuffers(result.mesh))
    port.postMessage(WORKER_READY)
  })
})

void sandboxFor(env.BUILD_MEMORY_LIMIT_MB * 1024 * 1024).then(
  () => port.postMessage(WORKER_READY),
  // A sandbox that cannot start: each job says why (replicad-sandbox.ts answers a failed boot).
  () => port.postMessage(WORKER_READY),
)
