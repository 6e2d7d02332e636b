import type { Mesh, MeshPart, Rgba } from '@/lib/cad/mesh/mesh'

/** OpenSCAD's default face colour (its "Cornfield" scheme), given to faces that carry none. */
export const DEFAULT_COLOR = [249, 215, 44, 255] as const
/**
 * The scheme's colour for the faces a subtraction cuts with uncoloured geometry: no colour of the
 * designer's either, so such faces belong to the uncoloured part, not to a part of their own.
 */
const CUT_FACE_COLOR = [157, 203, 81, 255] as const

/** Whether a part's colour (channels 0..1) is the one OpenSCAD gives geometry the designer did not colour. */
export function isUncoloured(color: Rgba): boolean {
  return color.every((channel, i) => Math.round(channel * 255) === DEFAULT_COLOR[i])
}

/**
 * Reads OFF text as OpenSCAD exports it: one part per distinct face colour, in order of first
 * appearance, each with only the vertices its triangles use. Polygons are fan-triangulated.
 */
export function parseOff(text: string): Mesh {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line !== '')
  let cursor = 0
  const nextLine = (what: string): string[] => {
    const line = lines[cursor++]
    if (line === undefined) throw new Error(`OFF: unexpected end of input, expected ${what}`)
    return line.split(/\s+/)
  }

  const header = nextLine('the OFF header')
  if (!/^C?OFF$/.test(header[0] ?? '')) throw new Error(`OFF: header must start with OFF or COFF, got "${header[0]}"`)
  const counts = header.length > 1 ? header.slice(1) : nextLine('the vertex and face counts')
  const vertexCount = toCount(counts[0], 'vertex count')
  const faceCount = toCount(counts[1], 'face count')

  // COFF vertices carry an RGB or RGBA colour after x y z, which parts do not use.
  const vertexWidths = header[0] === 'COFF' ? [6, 7] : [3]
  const vertices = new Float32Array(vertexCount * 3)
  for (let v = 0; v < vertexCount; v++) {
    const tokens = nextLine(`vertex ${v}`)
    if (!vertexWidths.includes(tokens.length)) {
      throw new Error(`OFF: vertex ${v} needs ${vertexWidths.join(' or ')} values, got "${tokens.join(' ')}"`)
    }
    for (let axis = 0; axis < 3; axis++) vertices[v * 3 + axis] = toFinite(tokens[axis], `vertex ${v}`)
  }

  // Triangles as global vertex indices, grouped by colour key (Map keeps insertion order).
  const groups = new Map<string, { color: readonly number[]; triangles: number[] }>()
  for (let f = 0; f < faceCount; f++) {
    const tokens = nextLine(`face ${f}`)
    const size = toCount(tokens[0], `vertex count of face ${f}`)
    if (size < 3) throw new Error(`OFF: face ${f} has ${size} vertices, needs at least 3`)
    const corners = tokens.slice(1, 1 + size).map((token) => toIndex(token, vertexCount, f))
    if (corners.length < size) throw new Error(`OFF: face ${f} lists fewer than ${size} vertex indices`)
    const color = toColor(tokens.slice(1 + size), f)
    const key = color.join(' ')
    let group = groups.get(key)
    if (!group) groups.set(key, (group = { color, triangles: [] }))
    for (let k = 1; k < size - 1; k++) group.triangles.push(corners[0]!, corners[k]!, corners[k + 1]!)
  }
  if (cursor < lines.length)
    throw new Error(`OFF: ${lines.length - cursor} lines after the ${faceCount} faces the header announced`)

  const localIndex = new Int32Array(vertexCount)
  const parts = [...groups.values()].map(({ color, triangles }): MeshPart => {
    localIndex.fill(-1)
    const positions: number[] = []
    const indices = new Uint32Array(triangles.length)
    triangles.forEach((global, i) => {
      if (localIndex[global] === -1) {
        localIndex[global] = positions.length / 3
        positions.push(vertices[global * 3]!, vertices[global * 3 + 1]!, vertices[global * 3 + 2]!)
      }
      indices[i] = localIndex[global]!
    })
    const [r, g, b, a] = color.map((channel) => channel / 255) as [number, number, number, number]
    return { color: [r, g, b, a], positions: new Float32Array(positions), indices }
  })
  return { parts }
}

function toFinite(token: string | undefined, where: string): number {
  const value = Number(token)
  if (token === undefined || !Number.isFinite(value))
    throw new Error(`OFF: ${where} has a non-numeric value "${token}"`)
  return value
}

function toCount(token: string | undefined, what: string): number {
  const value = Number(token)
  if (token === undefined || !Number.isSafeInteger(value) || value < 0) throw new Error(`OFF: bad ${what} "${token}"`)
  return value
}

function toIndex(token: string, vertexCount: number, face: number): number {
  const index = Number(token)
  if (!Number.isInteger(index) || index < 0 || index >= vertexCount) {
    throw new Error(`OFF: face ${face} refers to vertex "${token}", outside 0..${vertexCount - 1}`)
  }
  return index
}

function toColor(tokens: string[], face: number): readonly number[] {
  if (tokens.length === 0) return DEFAULT_COLOR
  if (tokens.length !== 3 && tokens.length !== 4) {
    throw new Error(`OFF: face ${face} has ${tokens.length} values after its indices, expected none, r g b or r g b a`)
  }
  const channels = tokens.map((token) => toFinite(token, `colour of face ${face}`))
  if (channels.some((channel) => channel < 0 || channel > 255))
    throw new Error(`OFF: face ${face} has a colour outside 0..255`)
  const color = channels.length === 3 ? [...channels, 255] : channels
  return color.every((channel, i) => channel === CUT_FACE_COLOR[i]) ? DEFAULT_COLOR : color
}
