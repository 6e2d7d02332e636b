import { zipSync } from 'fflate'
import { linear, MATTE, yUp, type Mesh, type MeshPart } from '@/lib/cad/mesh/mesh'

// USDZ, for Apple's AR Quick Look (the USDZ rules of the OpenUSD specification): an uncompressed
// zip whose first file is the default layer, each file's data starting at a multiple of 64 bytes.
// The layer is USDA: the model in millimetres as built (metersPerUnit 0.001, so the product shows
// at its real size), Y up as AR expects (the model's Z becomes Y), a Mesh per part with its colour
// as a UsdPreviewSurface material.

const LAYER = 'model.usda'
const ALIGNMENT = 64
/** Local file header (30 bytes) before the name and the extra field. */
const LOCAL_HEADER_BYTES = 30
/** An extra field of the zip's own padding (id and length: 4 bytes, then zeros), as USD's own zip writer pads. */
const PADDING_FIELD = 0x1986
/** Numbers per piece of the layer: a piece is written in a few milliseconds. */
const SLICE = 30_000

export function writeUsdz(mesh: Mesh): Uint8Array {
  return zipLayer(writeUsda(mesh))
}

/**
 * writeUsdz for background work: the layer is written a piece at a time, the event loop free
 * between pieces, so that a customer's request never waits for a large model's AR file.
 */
export async function writeUsdzInSlices(mesh: Mesh): Promise<Uint8Array> {
  const pieces: string[] = []
  for (const piece of usdaPieces(mesh)) {
    pieces.push(piece)
    await new Promise(setImmediate)
  }
  return zipLayer(pieces.join(''))
}

/** The model as one USDA layer (above). */
export function writeUsda(mesh: Mesh): string {
  return [...usdaPieces(mesh)].join('')
}

function zipLayer(usda: string): Uint8Array {
  const name = new TextEncoder().encode(LAYER)
  const headerEnd = LOCAL_HEADER_BYTES + name.length + 4
  const padding = (ALIGNMENT - (headerEnd % ALIGNMENT)) % ALIGNMENT
  return zipSync({
    [LAYER]: [new TextEncoder().encode(usda), { level: 0, extra: { [PADDING_FIELD]: new Uint8Array(padding) } }],
  })
}

function* usdaPieces(mesh: Mesh): Generator<string> {
  yield `#usda 1.0
(
    defaultPrim = "Model"
    metersPerUnit = 0.001
    upAxis = "Y"
)

def Xform "Model" (
    kind = "component"
)
{
`
  const drawn = mesh.parts.flatMap((part, n) => (part.indices.length > 0 ? [{ part, prim: `part_${n}` }] : []))
  for (const [i, { part, prim }] of drawn.entries()) {
    if (i > 0) yield '\n\n'
    yield* meshPieces(part, prim)
  }
  yield `

    def Scope "Materials"
    {
${drawn.map(({ part, prim }) => material(part, prim)).join('\n\n')}
    }
}
`
}

function* meshPieces(part: MeshPart, prim: string): Generator<string> {
  const points = part.positions.length / 3
  const min = [Infinity, Infinity, Infinity]
  const max = [-Infinity, -Infinity, -Infinity]
  for (let i = 0; i < part.positions.length; i += 3)
    yUp(part.positions, i).forEach((value, axis) => {
      min[axis] = Math.min(min[axis]!, value)
      max[axis] = Math.max(max[axis]!, value)
    })
  yield `    def Mesh "${prim}" (
        prepend apiSchemas = ["MaterialBindingAPI"]${part.name ? `\n        displayName = ${JSON.stringify(part.name)}` : ''}
    )
    {
        float3[] extent = [${tuple(min)}, ${tuple(max)}]
        int[] faceVertexCounts = [${new Array(part.indices.length / 3).fill(3).join(', ')}]
        int[] faceVertexIndices = [`
  for (let start = 0; start < part.indices.length; start += SLICE)
    yield (start > 0 ? ', ' : '') + part.indices.subarray(start, start + SLICE).join(', ')
  yield `]
        rel material:binding = </Model/Materials/${prim}>
        point3f[] points = [`
  const pointsPerSlice = SLICE / 3
  for (let start = 0; start < points; start += pointsPerSlice) {
    const slice: string[] = []
    for (let p = start; p < Math.min(points, start + pointsPerSlice); p++) slice.push(tuple(yUp(part.positions, p * 3)))
    yield (start > 0 ? ', ' : '') + slice.join(', ')
  }
  yield `]
        uniform token subdivisionScheme = "none"
    }`
}

function material({ color: [r, g, b, a], surface = MATTE }: MeshPart, prim: string): string {
  return `        def Material "${prim}"
        {
            token outputs:surface.connect = </Model/Materials/${prim}/Surface.outputs:surface>

            def Shader "Surface"
            {
                uniform token info:id = "UsdPreviewSurface"
                color3f inputs:diffuseColor = ${tuple([r, g, b].map(linear))}
                float inputs:metallic = ${number(surface.metallic)}
                float inputs:opacity = ${number(a)}
                float inputs:roughness = ${number(surface.roughness)}
                token outputs:surface
            }
        }`
}

/** Seven digits: a float32 coordinate's precision. */
const number = (value: number) => String(Number(value.toPrecision(7)))
const tuple = (values: number[]) => `(${values.map(number).join(', ')})`
