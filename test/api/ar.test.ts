import { describe, expect, it } from 'vitest'
import { AR_MAX_TRIANGLES } from '@/lib/cad/mesh/export-mesh'
import { linear } from '@/lib/cad/mesh/mesh'
import { api, callJson } from '@/test/support/api-client'
import { expectArFiles } from '@/test/support/ar-files'
import { expectError, openSession, registerApplication } from '@/test/support/fixtures'

// The configured product for augmented reality (docs/ar.md): `type=usdz` and `type=glb` on the
// session's model and finalized model and on a snapshot's model, read back by independent readers
// against the STL of the same values, fetched as a phone does, with the modelKey and no header.

const TWO_PARTS = 'color("red") cube([40, 20, 10]);\ncolor("blue") translate([50, 0, 0]) cube(5);\n'

async function bytes(response: Response): Promise<Uint8Array> {
  expect(response.status).toBe(200)
  return new Uint8Array(await response.arrayBuffer())
}

/** The files of one model endpoint (`.../model` or `.../finalizedmodel`) by its key, as a phone fetches them. */
async function arFiles(modelPath: string, key: string) {
  const file = async (type: string) => bytes(await api('GET', `${modelPath}?type=${type}&key=${key}`))
  return expectArFiles({ stl: await file('stl'), usdz: await file('usdz'), glb: await file('glb') })
}

describe('AR files of the configured values', () => {
  it('hold the STL at its real size, Y up, a material per part, for the session and a snapshot', async () => {
    const { session, token } = await openSession(TWO_PARTS)
    const path = `/configsessions/${session.id}`
    const usdzResponse = await api('GET', `${path}/model?type=usdz&key=${session.modelKey}`)
    expect(usdzResponse.headers.get('content-type')).toBe('model/vnd.usdz+zip')
    const { usdz, gltf } = await arFiles(`${path}/model`, session.modelKey)
    expect(usdz.materials.map((material) => material.diffuseColor?.map((channel) => Math.round(channel)))).toEqual([
      [1, 0, 0],
      [0, 0, 1],
    ])
    expect(gltf.materials!.map((material) => material.pbrMetallicRoughness.baseColorFactor)).toEqual([
      [1, 0, 0, 1],
      [0, 0, 1, 1],
    ])
    expect(await callJson('getObjectInfo', { params: { sessionId: session.id }, token })).toMatchObject({
      ar: { possible: true, triangles: 24, reason: null },
    })

    await arFiles(`${path}/finalizedmodel`, session.modelKey)
    const snapshot = await callJson('createSnapshot', { params: { sessionId: session.id }, token })
    const ordered = await arFiles(`/snapshots/${snapshot.id}/model`, snapshot.modelKey)
    expect(ordered.usdz.meshes.map((mesh) => mesh.faceVertexIndices.length)).toEqual(
      usdz.meshes.map((mesh) => mesh.faceVertexIndices.length),
    )
  })

  it("are the customer's by the modelKey alone, also where the application keeps the finalized model to its server", async () => {
    const owner = await openSession(TWO_PARTS)
    const { key } = await registerApplication(owner.token, owner.configuratorId, { secureModel: true })
    const grant = await api('POST', '/auth/anonymous', { headers: { 'x-api-key': key } })
    const { accessToken } = (await grant.json()) as { accessToken: string }
    const opened = await api('POST', '/configsessions', {
      token: accessToken,
      headers: { 'x-api-key': key },
      body: { configuratorId: owner.configuratorId },
    })
    const session = (await opened.json()) as { id: string; modelKey: string }
    await arFiles(`/configsessions/${session.id}/model`, session.modelKey)
  })

  it("take the scene's materials where they map to a physically based one, and the part's own colour where not", async () => {
    const scene = {
      materials: {
        '0': {
          vertexShader: 'basic.vert',
          fragmentShader: 'metal.frag',
          uniforms: {
            u_baseColor: { type: 'color', value: '#336699' },
            metalness: { type: 'float', value: 1 },
            roughness: { type: 'float', value: 0.25 },
          },
        },
        '1': {
          vertexShader: 'basic.vert',
          fragmentShader: 'metal.frag',
          uniforms: { rings: { type: 'int', value: 3 } },
        },
      },
    }
    const { session } = await openSession(
      TWO_PARTS,
      {},
      {
        'renderer/basic.vert':
          'void main() { gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0); }',
        'renderer/metal.frag': 'uniform vec3 u_baseColor; void main() { gl_FragColor = vec4(u_baseColor, 1.0); }',
        'renderer/scene.json': JSON.stringify(scene),
      },
    )
    const { usdz, gltf } = await arFiles(`/configsessions/${session.id}/model`, session.modelKey)
    const blueGrey = [0x33, 0x66, 0x99].map((channel) => linear(channel / 255))
    expect(gltf.materials!.map((material) => material.pbrMetallicRoughness)).toEqual([
      { baseColorFactor: [...blueGrey, 1], metallicFactor: 1, roughnessFactor: 0.25 },
      { baseColorFactor: [0, 0, 1, 1], metallicFactor: 0, roughnessFactor: 0.7 },
    ])
    usdz.materials[0]!.diffuseColor!.forEach((channel, n) => expect(channel).toBeCloseTo(blueGrey[n]!, 5))
    expect(usdz.layer).toMatch(
      /float inputs:metallic = 1\n\s*float inputs:opacity = 1\n\s*float inputs:roughness = 0\.25/,
    )
  })

  it('refuses a model past the size limit as USDZ, and says why in its object info', async () => {
    const { session, token } = await openSession('sphere(r = 20, $fn = 400);\n')
    const info = await callJson('getObjectInfo', { params: { sessionId: session.id }, token })
    expect(info.ar.possible).toBe(false)
    expect(info.ar.triangles).toBeGreaterThan(AR_MAX_TRIANGLES)
    expect(info.ar.reason).toMatch(/too detailed for a phone .*triangles, over 100,000/)
    await expectError(
      await api('GET', `/configsessions/${session.id}/model?type=usdz&key=${session.modelKey}`),
      422,
      'unprocessable_entity',
      /type: It is too detailed for a phone/,
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
    const info = await callJson('getObjectInfo', { params: { sessionId: session.id }, token })
    expect(info.ar).toMatchObject({ possible: false, reason: expect.stringMatching(/flat part/) })
  })
})
