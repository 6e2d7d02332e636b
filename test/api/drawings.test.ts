import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { XMLParser } from 'fast-xml-parser'
import { describe, expect, it } from 'vitest'
import { contourLength } from '@/lib/cad/mesh/flat-outline'
import { contoursOfPathData } from '@/lib/cad/mesh/path-data'
import { call, callJson } from '@/test/support/api-client'
import { expectError, openSession } from '@/test/support/fixtures'

// 2D models of both CAD systems, for laser cutters: SVG and DXF in millimetres, read by real readers.

/** A 60 × 30 plate with a 10 mm hole: outline lengths 180 and 10π. */
const OPENSCAD_PLATE = 'difference() { square([60, 30]); translate([15, 15]) circle(d = 10, $fn = 360); }'
const REPLICAD_PLATE = `function main({ drawRectangle, drawCircle }) {
  return drawRectangle(60, 30).translate(30, 15).cut(drawCircle(5).translate(15, 15))
}`
const SYSTEMS = [
  { name: 'OpenSCAD', source: OPENSCAD_PLATE, fields: {} },
  { name: 'replicad', source: REPLICAD_PLATE, fields: { cadType: 'replicad' as const, mainFile: 'main.js' } },
]

/** The DXF's polylines, closed or not, and their lengths, as Debian's python3-ezdxf reads them (Debian's own python3). */
function readDxf(bytes: Uint8Array): { closed: boolean; length: number }[] {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'paraform-dxf-')), 'model.dxf')
  fs.writeFileSync(file, bytes)
  const script = `
import ezdxf, json, math, sys
doc = ezdxf.readfile(sys.argv[1])
assert doc.header.get('$INSUNITS') == 4, 'not millimetres'
out = []
for e in doc.modelspace().query('POLYLINE LWPOLYLINE'):
    pts = [tuple(p)[:2] for p in e.points()]
    n = len(pts)
    out.append({'closed': bool(e.is_closed), 'length': sum(math.dist(pts[i], pts[(i + 1) % n]) for i in range(n))})
print(json.dumps(out))`
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, file], { encoding: 'utf8' })) as {
    closed: boolean
    length: number
  }[]
}

const sorted = (lengths: number[]) => lengths.sort((a, b) => a - b)

describe.each(SYSTEMS)('a 2D $name model', ({ source, fields }) => {
  it('is SVG by default and DXF on request, in millimetres, read by an XML parser and by ezdxf', async () => {
    const { session, token } = await openSession(source, fields)
    const params = { sessionId: session.id }
    const svgResponse = await call('getModel', { params, token })
    expect(svgResponse.status).toBe(200)
    expect(svgResponse.headers.get('content-type')).toBe('image/svg+xml')
    expect(svgResponse.headers.get('content-disposition')).toMatch(/filename="model\.svg"/)
    const svg = new XMLParser({ ignoreAttributes: false }).parse(await svgResponse.text()) as {
      svg: { '@_width': string; '@_height': string; path: { '@_d': string } }
    }
    expect([svg.svg['@_width'], svg.svg['@_height']]).toEqual(['60mm', '30mm'])
    const svgLengths = sorted(contoursOfPathData(svg.svg.path['@_d']).map(contourLength))
    expect(svgLengths).toHaveLength(2)
    expect(svgLengths[0]! / (10 * Math.PI)).toBeCloseTo(1, 2)
    expect(svgLengths[1]).toBeCloseTo(180, 3)

    for (const operation of ['getModel', 'getFinalizedModel'] as const) {
      const dxf = await call(operation, { params, token, query: { type: 'dxf' } })
      expect(dxf.status).toBe(200)
      const polylines = readDxf(new Uint8Array(await dxf.arrayBuffer()))
      expect(polylines.every((polyline) => polyline.closed)).toBe(true)
      const lengths = sorted(polylines.map((polyline) => polyline.length))
      expect(lengths[0]! / (10 * Math.PI)).toBeCloseTo(1, 2)
      expect(lengths[1]).toBeCloseTo(180, 3)
    }
    expect((await call('getModel', { params, token, query: { type: 'glb' } })).status).toBe(200)
  })

  it('has a flat bounding box, no volume, its area, and a report that says it is for cutting', async () => {
    const { session, token } = await openSession(source, fields)
    const info = await callJson('getObjectInfo', { params: { sessionId: session.id }, token })
    expect(info.boundingBox).toEqual({ minX: 0, maxX: 60, minY: 0, maxY: 30, minZ: 0, maxZ: 0 })
    expect(info.volume).toBe(0)
    expect(info.area! / (1800 - 25 * Math.PI)).toBeCloseTo(1, 2)
    expect(info.print).toMatchObject({ process: 'cut', forSale: true, problems: [] })
  })

  it('is 422 naming type as an STL, and a 3D model is 422 as SVG', async () => {
    const { session, token } = await openSession(source, fields)
    const params = { sessionId: session.id }
    await expectError(
      await call('getModel', { params, token, query: { type: 'stl' } }),
      422,
      'unprocessable_entity',
      /type: a 2D \w+ model is one of svg, dxf, glb/,
    )
    const solid = await openSession('cube(10);')
    await expectError(
      await call('getModel', { params: { sessionId: solid.session.id }, token: solid.token, query: { type: 'svg' } }),
      422,
      'unprocessable_entity',
      /type: a 3D OpenSCAD model is one of stl, 3mf, glb, usdz, off/,
    )
  })
})
