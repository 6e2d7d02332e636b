import { zipSync } from 'fflate'
import { linear, MATTE, yUp, type Mesh } from '@/lib/cad/mesh/mesh'

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

export function writeUsdz(mesh: Mesh): Uint8Array {
  const name = new TextEncoder().encode(LAYER)
  const headerEnd = LOCAL_HEADER_BYTES + name.length + 4
  const padding = (ALIGNMENT - (headerEnd % ALIGNMENT)) % ALIGNMENT
  return zipSync({
    [LAYER]: [
      new TextEncoder().encode(writeUsda(mesh)),
      { level: 0, extra: { [PADDING_FIELD]: new Uint8Array(padding) } },
    ],
  })
}

/** The model as one USDA layer (above). */
export function writeUsda(mesh: Mesh): string {
  const prims: string[] = []
  const materials: string[] = []
  mesh.parts.forEach((part, n) => {
    if (part.indices.length === 0) return
    const prim = `part_${n}`
    const points: string[] = []
    const min = [Infinity, Infinity, Infinity]
    const max = [-Infinity, -Infinity, -Infinity]
    for (let i = 0; i < part.positions.length; i += 3) {
      const point = yUp(part.positions, i)
      point.forEach((value, axis) => {
        min[axis] = Math.min(min[axis]!, value)
        max[axis] = Math.max(max[axis]!, value)
      })
      points.push(tuple(point))
    }
    const [r, g, b, a] = part.color
    const { metallic, roughness } = part.surface ?? MATTE
    prims.push(`    def Mesh "${prim}" (
        prepend apiSchemas = ["MaterialBindingAPI"]${part.name ? `\n        displayName = ${JSON.stringify(part.name)}` : ''}
    )
    {
        float3[] extent = [${tuple(min)}, ${tuple(max)}]
        int[] faceVertexCounts = [${new Array(part.indices.length / 3).fill(3).join(', ')}]
        int[] faceVertexIndices = [${part.indices.join(', ')}]
        rel material:binding = </Model/Materials/${prim}>
        point3f[] points = [${points.join(', ')}]
        uniform token subdivisionScheme = "none"
    }`)
    materials.push(`        def Material "${prim}"
        {
            token outputs:surface.connect = </Model/Materials/${prim}/Surface.outputs:surface>

            def Shader "Surface"
            {
                uniform token info:id = "UsdPreviewSurface"
                color3f inputs:diffuseColor = ${tuple([r, g, b].map(linear))}
                float inputs:metallic = ${number(metallic)}
                float inputs:opacity = ${number(a)}
                float inputs:roughness = ${number(roughness)}
                token outputs:surface
            }
        }`)
  })
  return `#usda 1.0
(
    defaultPrim = "Model"
    metersPerUnit = 0.001
    upAxis = "Y"
)

def Xform "Model" (
    kind = "component"
)
{
${prims.join('\n\n')}

    def Scope "Materials"
    {
${materials.join('\n\n')}
    }
}
`
}

/** Seven digits: a float32 coordinate's precision. */
const number = (value: number) => String(Number(value.toPrecision(7)))
const tuple = (values: number[]) => `(${values.map(number).join(', ')})`
