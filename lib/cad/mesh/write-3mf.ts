import { strToU8, zipSync } from 'fflate'
import type { Mesh, Rgba } from '@/lib/cad/mesh/mesh'

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
 <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
 <Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/>
</Types>
`

const RELS = `<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
 <Relationship Target="/3D/3dmodel.model" Id="rel0" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/>
</Relationships>
`

/**
 * 3MF core package (spec 1.3): one base material per part and one object per part that has
 * triangles, each placed once in the build. Resource id 1 is the material group, objects follow.
 */
export function write3mf(mesh: Mesh): Uint8Array {
  const resources: string[] = []
  const items: string[] = []
  if (mesh.parts.length > 0) {
    const bases = mesh.parts.map((part, n) => `  <base name="part-${n}" displaycolor="${toHex(part.color)}"/>`)
    resources.push(' <basematerials id="1">', ...bases, ' </basematerials>')
  }
  mesh.parts.forEach(({ positions, indices }, n) => {
    const triangles: string[] = []
    for (let t = 0; t < indices.length; t += 3) {
      const [v1, v2, v3] = [indices[t]!, indices[t + 1]!, indices[t + 2]!]
      // The spec forbids triangles that repeat a vertex index.
      if (v1 !== v2 && v2 !== v3 && v3 !== v1) triangles.push(`<triangle v1="${v1}" v2="${v2}" v3="${v3}"/>`)
    }
    if (triangles.length === 0) return
    const vertices: string[] = []
    for (let i = 0; i < positions.length; i += 3) {
      vertices.push(`<vertex x="${toDecimal(positions[i]!)}" y="${toDecimal(positions[i + 1]!)}" z="${toDecimal(positions[i + 2]!)}"/>`)
    }
    const id = items.length + 2
    resources.push(
      ` <object id="${id}" name="part-${n}" type="model" pid="1" pindex="${n}">`,
      `  <mesh>`,
      `   <vertices>${vertices.join('')}</vertices>`,
      `   <triangles>${triangles.join('')}</triangles>`,
      `  </mesh>`,
      ` </object>`,
    )
    items.push(` <item objectid="${id}"/>`)
  })
  const model = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<model unit="millimeter" xml:lang="en-US" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">',
    '<resources>',
    ...resources,
    '</resources>',
    '<build>',
    ...items,
    '</build>',
    '</model>',
    '',
  ].join('\n')
  return zipSync({
    '[Content_Types].xml': strToU8(CONTENT_TYPES),
    '_rels/.rels': strToU8(RELS),
    '3D/3dmodel.model': strToU8(model),
  })
}

/** sRGB as #RRGGBB, with AA only when translucent. */
function toHex(color: Rgba): string {
  const channels = color[3] < 1 ? color : color.slice(0, 3)
  return `#${channels.map((c) => Math.round(c * 255).toString(16).padStart(2, '0').toUpperCase()).join('')}`
}

/** At most 6 decimals and never exponent notation, which the 3MF number grammar does not allow. */
function toDecimal(value: number): string {
  const text = value.toFixed(6).replace(/\.?0+$/, '')
  return text === '-0' ? '0' : text
}
