import { describe, expect, it } from 'vitest'
import { parseOff } from '@/lib/cad/mesh/parse-off'
import { BOX_AND_CUBE_OFF } from '@/lib/cad/mesh/test-meshes'
import { withSceneLook } from '@/lib/renderers/ar-look'
import type { Material, Uniform } from '@/lib/renderers/schemas'

const material = (uniforms: Record<string, Uniform>): Material => ({
  vertexShader: 'a.vert',
  fragmentShader: 'a.frag',
  uniforms,
})

describe('withSceneLook', () => {
  const mesh = parseOff(BOX_AND_CUBE_OFF)

  it("takes a material's colour, metalness and roughness by their usual names, clamped to 0..1", () => {
    const looked = withSceneLook(mesh, {
      materials: {
        '1': material({
          Albedo: { type: 'vec4', value: [0.5, 1.5, 0, 0.5] },
          u_metallic: { type: 'float', value: 2 },
          roughness: { type: 'float', value: 0.3 },
        }),
      },
    })
    expect(looked.parts[0]).toBe(mesh.parts[0])
    expect(looked.parts[1]).toMatchObject({ color: [0.5, 1, 0, 0.5], surface: { metallic: 1, roughness: 0.3 } })
    expect(looked.parts[1]!.positions).toBe(mesh.parts[1]!.positions)
  })

  it('keeps the mesh itself when nothing maps, and gives the same mesh for the same scene', () => {
    const custom = {
      materials: { '0': material({ rings: { type: 'int', value: 3 }, tint: { type: 'int', value: 1 } }) },
    }
    expect(withSceneLook(mesh, custom)).toBe(mesh)
    const metal = { materials: { '0': material({ metalness: { type: 'float', value: 1 } }) } }
    const looked = withSceneLook(mesh, metal)
    expect(looked.parts[0]).toMatchObject({ color: mesh.parts[0]!.color, surface: { metallic: 1, roughness: 0.7 } })
    expect(withSceneLook(mesh, structuredClone(metal))).toBe(looked)
  })
})
