import { strToU8, zipSync } from 'fflate'
import { Color } from 'three'
import type { Mesh, Rgba } from '@/lib/cad/mesh/mesh'

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
 <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
 <Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/>
 <Default Extension="config" ContentType="text/xml"/>
</Types>
`

const RELS = `<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
 <Relationship Target="/3D/3dmodel.model" Id="rel0" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/>
</Relationships>
`

const OBJECT_ID = 2
const COLOR_GROUP_ID = 1

/**
 * A multi-part model as slicers store one: a 3MF core package (spec 1.3) with one mesh object,
 * placed once and standing on the build plate (lowest z = 0), its triangles part after part and
 * each part coloured through the Materials extension's colour group; and PrusaSlicer's
 * `Metadata/Slic3r_PE_model.config`, which names each part's triangle range a volume, so that
 * PrusaSlicer and the slicers descended from it (OrcaSlicer, Bambu Studio) read one object of N
 * parts. Parts keep vertices of their own, so parts that touch stay closed each. Parts without
 * triangles are left out. `names` default to the parts' colour names. With `extruders` above
 * one, each part says which extruder prints it, in turn from the first (a slicer's multi-material run).
 */
export function write3mf(
  mesh: Mesh,
  names: string[] = mesh.parts.map((part) => colorName(part.color)),
  title = 'model',
  extruders = 1,
): Uint8Array {
  const parts = mesh.parts
    .map((part, n) => ({ ...part, name: names[n] ?? colorName(part.color), n, valid: validTriangles(part.indices) }))
    .filter(({ valid }) => valid.length > 0)
  let lowest = Infinity
  for (const { positions } of parts)
    for (let i = 2; i < positions.length; i += 3) lowest = Math.min(lowest, positions[i]!)
  const dz = parts.length > 0 ? -lowest : 0
  const vertices: string[] = []
  const triangles: string[] = []
  const volumes: string[] = []
  for (const { positions, valid, name, n } of parts) {
    const [firstVertex, firstTriangle] = [vertices.length, triangles.length]
    for (let i = 0; i < positions.length; i += 3) {
      vertices.push(
        `<vertex x="${toDecimal(positions[i]!)}" y="${toDecimal(positions[i + 1]!)}" z="${toDecimal(positions[i + 2]! + dz)}"/>`,
      )
    }
    const property = n === 0 ? '' : ` pid="${COLOR_GROUP_ID}" p1="${n}"`
    for (const [v1, v2, v3] of valid) {
      triangles.push(
        `<triangle v1="${v1 + firstVertex}" v2="${v2 + firstVertex}" v3="${v3 + firstVertex}"${property}/>`,
      )
    }
    volumes.push(
      `  <volume firstid="${firstTriangle}" lastid="${triangles.length - 1}">`,
      `   <metadata type="volume" key="name" value="${escapeXml(name)}"/>`,
      `   <metadata type="volume" key="volume_type" value="ModelPart"/>`,
      ...(extruders > 1 ? [`   <metadata type="volume" key="extruder" value="${(n % extruders) + 1}"/>`] : []),
      `  </volume>`,
    )
  }
  const colors = mesh.parts.map(({ color }) => `  <m:color color="${toHex(color)}"/>`)
  const object =
    parts.length === 0
      ? []
      : [
          ` <m:colorgroup id="${COLOR_GROUP_ID}">`,
          ...colors,
          ' </m:colorgroup>',
          ` <object id="${OBJECT_ID}" name="${escapeXml(title)}" type="model" pid="${COLOR_GROUP_ID}" pindex="0">`,
          `  <mesh>`,
          `   <vertices>${vertices.join('')}</vertices>`,
          `   <triangles>${triangles.join('')}</triangles>`,
          `  </mesh>`,
          ` </object>`,
        ]
  const model = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<model unit="millimeter" xml:lang="en-US" ' +
      'xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02" ' +
      'xmlns:m="http://schemas.microsoft.com/3dmanufacturing/material/2015/02" ' +
      'xmlns:slic3rpe="http://schemas.slic3r.org/3mf/2017/06">',
    ' <metadata name="slic3rpe:Version3mf">1</metadata>',
    // OrcaSlicer and Bambu Studio hand a file to PrusaSlicer's loader, which reads the volumes, when its application names PrusaSlicer.
    ' <metadata name="Application">Paraform (PrusaSlicer 3MF layout)</metadata>',
    '<resources>',
    ...object,
    '</resources>',
    '<build>',
    ...(parts.length === 0 ? [] : [` <item objectid="${OBJECT_ID}"/>`]),
    '</build>',
    '</model>',
    '',
  ].join('\n')
  const config = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<config>',
    ...(parts.length === 0
      ? []
      : [
          ` <object id="${OBJECT_ID}" instances_count="1">`,
          `  <metadata type="object" key="name" value="${escapeXml(title)}"/>`,
          ...volumes,
          ' </object>',
        ]),
    '</config>',
    '',
  ].join('\n')
  return zipSync({
    '[Content_Types].xml': strToU8(CONTENT_TYPES),
    '_rels/.rels': strToU8(RELS),
    '3D/3dmodel.model': strToU8(model),
    'Metadata/Slic3r_PE_model.config': strToU8(config),
  })
}

/** The spec forbids triangles that repeat a vertex index. */
function validTriangles(indices: Uint32Array): [number, number, number][] {
  const result: [number, number, number][] = []
  for (let t = 0; t < indices.length; t += 3) {
    const [v1, v2, v3] = [indices[t]!, indices[t + 1]!, indices[t + 2]!]
    if (v1 !== v2 && v2 !== v3 && v3 !== v1) result.push([v1, v2, v3])
  }
  return result
}

const NAMES = new Map<number, string>(Object.entries(Color.NAMES).map(([name, hex]) => [hex, name]))

/** The CSS (and OpenSCAD) name of a colour, else its hex code. */
export function colorName(color: Rgba): string {
  const [r, g, b] = color.map((channel) => Math.round(channel * 255))
  const name = NAMES.get((r! << 16) | (g! << 8) | b!)
  return name ? name.charAt(0).toUpperCase() + name.slice(1) : toHex(color)
}

/** sRGB as #RRGGBB, with AA only when translucent. */
export function toHex(color: Rgba): string {
  const channels = color[3] < 1 ? color : color.slice(0, 3)
  return `#${channels
    .map((c) =>
      Math.round(c * 255)
        .toString(16)
        .padStart(2, '0')
        .toUpperCase(),
    )
    .join('')}`
}

/** At most 6 decimals and never exponent notation, which the 3MF number grammar does not allow. */
function toDecimal(value: number): string {
  const text = value.toFixed(6).replace(/\.?0+$/, '')
  return text === '-0' ? '0' : text
}

const ENTITIES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' }

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => ENTITIES[char]!)
}
