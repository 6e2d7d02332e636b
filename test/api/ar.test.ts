import { describe, expect, it } from 'vitest'
import { parseBinaryStl } from '@/lib/cad/mesh/parse-stl'
import { measureMesh } from '@/lib/cad/mesh/measure-mesh'
import { api, callJson } from '@/test/support/api-client'
import { expectError, openSession } from '@/test/support/fixtures'
import { readUsdz } from '@/test/support/tinyusdz'

// The configured product for augmented reality (issue 50, under way): `type=usdz` on the
// session's model and finalized model and on a snapshot's model, read back by TinyUSDZ, an
// independent USD reader, against the STL of the same values.

const TWO_PARTS = 'color("red") cube([40, 20, 10]);\ncolor("blue") translate([50, 0, 0]) cube(5);\n'

async function bytes(response: Response): Promise<Uint8Array> {
  expect(response.status).toBe(200)
  return new Uint8Array(await response.arrayBuffer())
}

describe('USDZ of the configured values', () => {
  it("holds the STL's triangles at their real size, Y up, a material per part; a snapshot keeps its own", async () => {
    const { session, token } = await openSession(TWO_PARTS)
    const path = `/configsessions/${session.id}`
    const usdzResponse = await api('GET', `${path}/model?type=usdz`, { token })
    expect(usdzResponse.headers.get('content-type')).toBe('model/vnd.usdz+zip')
    const usdz = await readUsdz(await bytes(usdzResponse))
    const stl = parseBinaryStl(await bytes(await api('GET', `${path}/model?type=stl`, { token })))
    const triangles = (mesh: { parts: { indices: Uint32Array }[] }) =>
      mesh.parts.reduce((sum, part) => sum + part.indices.length / 3, 0)
    expect(usdz.meshes.reduce((sum, mesh) => sum + mesh.faceVertexIndices.length / 3, 0)).toBe(triangles(stl))
    expect(usdz.meshes).toHaveLength(2)
    expect(usdz.materials.map((material) => material.diffuseColor?.map((channel) => Math.round(channel)))).toEqual([
      [1, 0, 0],
      [0, 0, 1],
    ])
    expect(usdz.layer).toMatch(/metersPerUnit = 0\.001/)
    // In metres, within 0.1 %: 55 mm wide, 10 mm high (Y up), 20 mm deep.
    const box = measureMesh(stl).boundingBox
    const points = usdz.meshes.flatMap((mesh) => [...mesh.points])
    const extent = (axis: number) => {
      const values = points.filter((_, index) => index % 3 === axis)
      return (Math.max(...values) - Math.min(...values)) * 0.001
    }
    const sizes = [box.maxX - box.minX, box.maxZ - box.minZ, box.maxY - box.minY].map((mm) => mm / 1000)
    sizes.forEach((size, axis) => expect(Math.abs(extent(axis) - size) / size).toBeLessThan(0.001))

    const final = await readUsdz(await bytes(await api('GET', `${path}/finalizedmodel?type=usdz`, { token })))
    expect(final.meshes).toHaveLength(2)

    const snapshot = await callJson('createSnapshot', { params: { sessionId: session.id }, token })
    const ordered = await readUsdz(
      await bytes(await api('GET', `/snapshots/${snapshot.id}/model?type=usdz&key=${snapshot.modelKey}`)),
    )
    expect(ordered.meshes.map((mesh) => mesh.faceVertexIndices.length)).toEqual(
      usdz.meshes.map((mesh) => mesh.faceVertexIndices.length),
    )
  })

  it('refuses a 2D model as USDZ, naming type', async () => {
    const { session, token } = await openSession('square([30, 20]);\n')
    await expectError(
      await api('GET', `/configsessions/${session.id}/model?type=usdz`, { token }),
      422,
      'unprocessable_entity',
      /type: a 2D \w+ model is one of svg, dxf, glb/,
    )
  })
})
