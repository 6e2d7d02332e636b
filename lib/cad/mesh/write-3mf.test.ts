import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { strFromU8, unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { parseOff } from '@/lib/cad/mesh/parse-off'
import { BOX_AND_CUBE_OFF, TRANSLUCENT_WITH_DEGENERATE } from '@/lib/cad/mesh/test-meshes'
import { colorName, write3mf } from '@/lib/cad/mesh/write-3mf'

type Attributes = Record<string, string>
type MeshObject = Attributes & { mesh: { vertices: { vertex: Attributes[] }; triangles: { triangle: Attributes[] } } }
interface Model {
  unit: string
  'xml:lang': string
  xmlns: string
  'xmlns:m': string
  resources: { 'm:colorgroup'?: Attributes & { 'm:color': Attributes[] }; object?: MeshObject[] }
  build: '' | { item: Attributes[] }
}
interface Config {
  object?: (Attributes & { metadata: Attributes[]; volume: (Attributes & { metadata: Attributes[] })[] })[]
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (name) =>
    ['m:color', 'object', 'vertex', 'triangle', 'item', 'volume', 'metadata', 'Default', 'Relationship'].includes(name),
})

/** Unzips a package, checks every entry is well-formed XML and returns them parsed. */
function read3mf(bytes: Uint8Array) {
  const files = unzipSync(bytes)
  expect(Object.keys(files).sort()).toEqual([
    '3D/3dmodel.model',
    'Metadata/Slic3r_PE_model.config',
    '[Content_Types].xml',
    '_rels/.rels',
  ])
  const xml = Object.fromEntries(Object.entries(files).map(([path, data]) => [path, strFromU8(data)]))
  for (const text of Object.values(xml)) expect(XMLValidator.validate(text)).toBe(true)
  return {
    contentTypes: parser.parse(xml['[Content_Types].xml']!).Types as { Default: Attributes[] },
    rels: parser.parse(xml['_rels/.rels']!).Relationships as { Relationship: Attributes[] },
    model: parser.parse(xml['3D/3dmodel.model']!).model as Model,
    config: parser.parse(xml['Metadata/Slic3r_PE_model.config']!).config as Config,
    modelXml: xml['3D/3dmodel.model']!,
  }
}

const volumeName = (volume: { metadata: Attributes[] }) => volume.metadata.find((entry) => entry.key === 'name')?.value

describe('write3mf', () => {
  it('packages one object whose triangle ranges are named, coloured parts, standing on the plate', () => {
    const mesh = parseOff(BOX_AND_CUBE_OFF)
    const { contentTypes, rels, model, config, modelXml } = read3mf(write3mf(mesh, ['Box', 'Cube'], 'Two <parts>'))

    expect(contentTypes.Default.map((entry) => entry.Extension)).toEqual(['rels', 'model', 'config'])
    expect(rels.Relationship).toEqual([
      { Target: '/3D/3dmodel.model', Id: 'rel0', Type: 'http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel' },
    ])
    expect(model.unit).toBe('millimeter')
    expect(model.xmlns).toBe('http://schemas.microsoft.com/3dmanufacturing/core/2015/02')
    expect(model['xmlns:m']).toBe('http://schemas.microsoft.com/3dmanufacturing/material/2015/02')
    expect(modelXml).not.toMatch(/\de[+-]?\d/i)

    const group = model.resources['m:colorgroup']!
    expect(group['m:color'].map((color) => color.color)).toEqual(['#FF0000', '#F9D72C'])
    const [object, ...others] = model.resources.object!
    expect(others).toEqual([])
    expect(object).toMatchObject({ type: 'model', name: 'Two <parts>', pid: group.id, pindex: '0' })
    expect(model.build !== '' && model.build.item).toEqual([{ objectid: object!.id }])
    expect(new Set([object!.id, group.id]).size).toBe(2)

    // Each part's vertices are its own, in order; its triangles point at them and carry its colour.
    const vertexCounts = mesh.parts.map((part) => part.positions.length / 3)
    expect(object!.mesh.vertices.vertex).toHaveLength(vertexCounts[0]! + vertexCounts[1]!)
    const triangles = object!.mesh.triangles.triangle
    expect(triangles).toHaveLength(mesh.parts.reduce((sum, part) => sum + part.indices.length / 3, 0))
    const [boxTriangles, cubeTriangles] = [mesh.parts[0]!.indices.length / 3, mesh.parts[1]!.indices.length / 3]
    for (const triangle of triangles.slice(0, boxTriangles)) {
      expect(triangle.p1).toBeUndefined()
      for (const v of [triangle.v1, triangle.v2, triangle.v3]) expect(Number(v)).toBeLessThan(vertexCounts[0]!)
    }
    for (const triangle of triangles.slice(boxTriangles)) {
      expect(triangle).toMatchObject({ pid: group.id, p1: '1' })
      for (const v of [triangle.v1, triangle.v2, triangle.v3])
        expect(Number(v)).toBeGreaterThanOrEqual(vertexCounts[0]!)
    }
    const coordinates = object!.mesh.vertices.vertex.flatMap((vertex) => [vertex.x, vertex.y, vertex.z].map(Number))
    expect(coordinates).toEqual([...mesh.parts[0]!.positions, ...mesh.parts[1]!.positions])

    const [entry] = config.object!
    expect(entry).toMatchObject({ id: object!.id, instances_count: '1' })
    expect(entry!.volume.map((volume) => [volume.firstid, volume.lastid, volumeName(volume)])).toEqual([
      ['0', String(boxTriangles - 1), 'Box'],
      [String(boxTriangles), String(boxTriangles + cubeTriangles - 1), 'Cube'],
    ])
    for (const volume of entry!.volume)
      expect(volume.metadata).toContainEqual({ type: 'volume', key: 'volume_type', value: 'ModelPart' })
  })

  it('lifts the model onto the build plate', () => {
    const part = {
      ...TRANSLUCENT_WITH_DEGENERATE.parts[0]!,
      positions: new Float32Array([0, 0, -2, 1, 0, -2, 0, 1, -2, 0, 0, -1]),
    }
    const { model } = read3mf(write3mf({ parts: [part] }))
    expect(model.resources.object![0]!.mesh.vertices.vertex.map((vertex) => vertex.z)).toEqual(['0', '0', '0', '1'])
  })

  it('skips triangles that repeat a vertex, parts without triangles, and writes alpha into the colour', () => {
    const empty = { color: [0, 1, 0, 1] as const, positions: new Float32Array(), indices: new Uint32Array() }
    const { model, config } = read3mf(write3mf({ parts: [TRANSLUCENT_WITH_DEGENERATE.parts[0]!, empty] }))
    expect(model.resources['m:colorgroup']!['m:color'][0]!.color).toBe('#33669980')
    const triangles = model.resources.object![0]!.mesh.triangles.triangle
    expect(triangles).toHaveLength(4)
    for (const triangle of triangles) expect(new Set([triangle.v1, triangle.v2, triangle.v3]).size).toBe(3)
    expect(config.object![0]!.volume.map(volumeName)).toEqual(['#33669980'])
  })

  it('writes decimals without exponents, rounded to 6 places', () => {
    const part = {
      ...TRANSLUCENT_WITH_DEGENERATE.parts[0]!,
      positions: new Float32Array([1e-7, -1e-7, 123456.5, 1, 0, 0, 0, 1, 0, 0, 0, 1]),
    }
    const { model } = read3mf(write3mf({ parts: [part] }))
    expect(model.resources.object![0]!.mesh.vertices.vertex[0]).toEqual({ x: '0', y: '0', z: '123456.5' })
  })

  it('writes an empty model for an empty mesh', () => {
    const { model, config } = read3mf(write3mf({ parts: [] }))
    expect(model.resources.object).toBeUndefined()
    expect(model.build).toBe('')
    expect(config.object).toBeUndefined()
  })

  it('names colours as CSS and OpenSCAD do, others by hex', () => {
    expect(colorName([220 / 255, 20 / 255, 60 / 255, 1])).toBe('Crimson')
    expect(colorName([1, 1, 1, 1])).toBe('White')
    expect(colorName([249 / 255, 215 / 255, 44 / 255, 1])).toBe('#F9D72C')
  })
})
