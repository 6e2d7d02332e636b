import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { strFromU8, unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { parseOff } from '@/lib/cad/mesh/parse-off'
import { BOX_AND_CUBE_OFF, TRANSLUCENT_WITH_DEGENERATE } from '@/lib/cad/mesh/test-meshes'
import { write3mf } from '@/lib/cad/mesh/write-3mf'

type Attributes = Record<string, string>
interface Model {
  '@_unit': string
  '@_xml:lang': string
  '@_xmlns': string
  resources: {
    basematerials?: Attributes & { base: Attributes[] }
    object?: (Attributes & { mesh: { vertices: { vertex: Attributes[] }; triangles: { triangle: Attributes[] } } })[]
  }
  build: '' | { item: Attributes[] }
}

const parser = new XMLParser({
  ignoreAttributes: false,
  isArray: (name) => ['base', 'object', 'vertex', 'triangle', 'item', 'Default', 'Relationship'].includes(name),
})

/** Unzips a package, checks every entry is well-formed XML and returns them parsed. */
function read3mf(bytes: Uint8Array) {
  const files = unzipSync(bytes)
  expect(Object.keys(files).sort()).toEqual(['3D/3dmodel.model', '[Content_Types].xml', '_rels/.rels'])
  const xml = Object.fromEntries(Object.entries(files).map(([path, data]) => [path, strFromU8(data)]))
  for (const text of Object.values(xml)) expect(XMLValidator.validate(text)).toBe(true)
  return {
    contentTypes: parser.parse(xml['[Content_Types].xml']!).Types as { Default: Attributes[] },
    rels: parser.parse(xml['_rels/.rels']!).Relationships as { Relationship: Attributes[] },
    model: parser.parse(xml['3D/3dmodel.model']!).model as Model,
    modelXml: xml['3D/3dmodel.model']!,
  }
}

describe('write3mf', () => {
  it('packages one coloured object per part, each placed in the build', () => {
    const mesh = parseOff(BOX_AND_CUBE_OFF)
    const { contentTypes, rels, model, modelXml } = read3mf(write3mf(mesh))

    expect(contentTypes.Default.map((entry) => [entry['@_Extension'], entry['@_ContentType']])).toEqual([
      ['rels', 'application/vnd.openxmlformats-package.relationships+xml'],
      ['model', 'application/vnd.ms-package.3dmanufacturing-3dmodel+xml'],
    ])
    expect(rels.Relationship).toEqual([
      { '@_Target': '/3D/3dmodel.model', '@_Id': 'rel0', '@_Type': 'http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel' },
    ])
    expect(model['@_unit']).toBe('millimeter')
    expect(model['@_xml:lang']).toBe('en-US')
    expect(model['@_xmlns']).toBe('http://schemas.microsoft.com/3dmanufacturing/core/2015/02')
    expect(modelXml).not.toMatch(/\de[+-]?\d/i)

    const materials = model.resources.basematerials!
    expect(materials.base.map((base) => base['@_displaycolor'])).toEqual(['#FF0000', '#F9D72C'])
    const objects = model.resources.object!
    expect(objects).toHaveLength(mesh.parts.length)
    objects.forEach((object, n) => {
      const part = mesh.parts[n]!
      expect(object['@_type']).toBe('model')
      expect(object['@_pid']).toBe(materials['@_id'])
      expect(object['@_pindex']).toBe(String(n))
      expect(object.mesh.vertices.vertex).toHaveLength(part.positions.length / 3)
      expect(object.mesh.triangles.triangle).toHaveLength(part.indices.length / 3)
      const coordinates = object.mesh.vertices.vertex.flatMap((vertex) => [vertex['@_x'], vertex['@_y'], vertex['@_z']].map(Number))
      expect(coordinates).toEqual([...part.positions])
    })
    const ids = objects.map((object) => Number(object['@_id']))
    expect(new Set([...ids, Number(materials['@_id'])]).size).toBe(ids.length + 1)
    expect(ids.every((id) => Number.isInteger(id) && id > 0)).toBe(true)
    expect(model.build !== '' && model.build.item.map((item) => Number(item['@_objectid']))).toEqual(ids)
  })

  it('skips triangles that repeat a vertex and writes alpha into the colour', () => {
    const { model } = read3mf(write3mf(TRANSLUCENT_WITH_DEGENERATE))
    expect(model.resources.basematerials!.base[0]!['@_displaycolor']).toBe('#33669980')
    const triangles = model.resources.object![0]!.mesh.triangles.triangle
    expect(triangles).toHaveLength(4)
    for (const triangle of triangles) expect(new Set([triangle['@_v1'], triangle['@_v2'], triangle['@_v3']]).size).toBe(3)
  })

  it('writes decimals without exponents, rounded to 6 places', () => {
    const part = { ...TRANSLUCENT_WITH_DEGENERATE.parts[0]!, positions: new Float32Array([1e-7, -1e-7, 123456.5, 1, 0, 0, 0, 1, 0, 0, 0, 1]) }
    const { model } = read3mf(write3mf({ parts: [part] }))
    expect(model.resources.object![0]!.mesh.vertices.vertex[0]).toEqual({ '@_x': '0', '@_y': '0', '@_z': '123456.5' })
  })

  it('writes an empty model for an empty mesh', () => {
    const { model } = read3mf(write3mf({ parts: [] }))
    expect(model.resources.object).toBeUndefined()
    expect(model.build).toBe('')
  })
})
