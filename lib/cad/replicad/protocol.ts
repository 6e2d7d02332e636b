// What replicad-sandbox.ts and its child, sandbox-process.ts, say to each other (docs/replicad-sandbox.md).
// Types only: the child, run by plain `node` with type stripping, imports them as `import type`.
//
// Requests travel down the child's stdin as JSON, one per line (JSON.stringify never writes a raw
// newline). Answers travel up its stdout as frames, since a mesh is megabytes of numbers:
//
//   u32 LE  length of the rest of the frame
//   u32 LE  length of the JSON
//   JSON    the answer, UTF-8, zero-padded to a multiple of 4 bytes
//   bytes   the binary section: each part's positions then indices, each at a multiple of 4
//
// A part's `positions` and `indices` are BinaryRefs in the JSON: where its array lies in the binary section.

/** What a model's parameter takes; the same as the engine's ParameterValue. */
export type ParameterValue = number | string | boolean | number[]

/**
 * Build a model: run its `main` with `values` over its `defaultParams`, and mesh what it returns
 * (`build`) or write it as STEP (`step`); or only evaluate it for its parameters (`parameters`).
 */
export interface BuildRequest {
  id: number
  kind: 'build' | 'step' | 'parameters'
  /** The model file's JavaScript: workbench script or ES module syntax. */
  code: string
  /** Its file name, as the log's errors name it (`main.js:12:9`); `model.js` unless given. */
  file?: string
  values: Record<string, ParameterValue>
  /** Most distance between the mesh and the surface, in millimetres. */
  tolerance: number
  /** Most angle between adjacent triangles' normals, in radians. */
  angularTolerance: number
}

/** The child booted: it takes requests now. */
export interface Ready {
  kind: 'ready'
  bootMs: number
  rssBytes: number
  /** The child's writable memory (VmData), which RLIMIT_DATA limits. */
  dataBytes: number
}

/** Where a typed array lies in a frame's binary section. */
export interface BinaryRef {
  /** Bytes from the start of the binary section. */
  offset: number
  /** Elements, not bytes. */
  length: number
}

/** One solid of a 3D result, meshed. */
export interface PartOf<Positions, Indices> {
  name: string
  /** As the model gave it, e.g. `#ff8800` or `steelblue`. */
  color?: string
  /** x, y, z per vertex, in millimetres. */
  positions: Positions
  /** Three vertex indices per triangle. */
  indices: Indices
  /** Cubic millimetres, of the B-rep (not of the mesh). */
  volume: number
}

export interface Drawing2d {
  /** SVG path data by shape: a shape's outline and its holes. */
  svgPaths: string[][]
  /** [[xMin, yMin], [xMax, yMax]], in millimetres. */
  boundingBox: [[number, number], [number, number]]
}

interface AnswerBase {
  id: number
  ok: boolean
  /**
   * What the model printed (console.log; `WARNING: ` and `ERROR: ` before console.warn's and
   * console.error's), then why it failed: `ERROR: <what> (<file>:<line>:<column>)`, its place when known.
   */
  log: string[]
  /** The model's `defaultParams`, raw; absent when it has none or did not evaluate. */
  defaultParams?: unknown
  /** The model's `parameters` definitions, raw. */
  parameters?: unknown
  /** Time in the child from the request to the answer, building and meshing or writing STEP. */
  buildMs: number
  /** The child ends after this answer (it outgrew its memory, or OpenCascade trapped): send it nothing more. */
  retiring?: boolean
}

/** A build's answer as it travels: parts' arrays are BinaryRefs. */
export interface BuildAnswerOf<Positions, Indices> extends AnswerBase {
  kind: 'build'
  parts?: PartOf<Positions, Indices>[]
  drawing?: Drawing2d
}

export interface StepAnswer extends AnswerBase {
  kind: 'step'
  /** AP242 STEP text: a solid per part, with its name and colour, in millimetres. */
  step?: string
}

/** A model evaluated without running `main`: its defaultParams and parameters. */
export interface ParametersAnswer extends AnswerBase {
  kind: 'parameters'
}

export type WireAnswer = BuildAnswerOf<BinaryRef, BinaryRef> | StepAnswer | ParametersAnswer

/** Everything the child writes, frame by frame. */
export type ChildMessage = Ready | WireAnswer
