import {
  Color,
  Mesh,
  MeshStandardMaterial,
  ShaderMaterial,
  SRGBColorSpace,
  Texture,
  Vector2,
  Vector3,
  type Object3D,
} from 'three'
import { describe, expect, it } from 'vitest'
import { parseOff } from '@/lib/cad/mesh/parse-off'
import { BOX_AND_CUBE_OFF } from '@/lib/cad/mesh/test-meshes'
import { writeGlb } from '@/lib/cad/mesh/write-glb'
import { buildScene } from '@/lib/render/build-scene'
import { parseGlb } from '@/lib/render/parse-glb'
import type { SceneSettings } from '@/lib/renderers/schemas'

// A red 10x20x5 box (part 0) and an uncoloured 3 mm cube at x = 20 (part 1).
async function loadModel(): Promise<Object3D> {
  const bytes = writeGlb(parseOff(BOX_AND_CUBE_OFF))
  return parseGlb(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer)
}

const FILES: Record<string, string> = {
  'pass.vert': 'void main(){gl_Position=projectionMatrix*modelViewMatrix*vec4(position,1.0);}',
  'tint.frag': 'uniform vec3 tint; void main(){gl_FragColor=vec4(tint,1.);}',
  'glsl3.frag': '#version 300 es\nout vec4 color; void main(){color=vec4(1.);}',
}

const loaders = {
  loadText: async (path: string) => {
    const text = FILES[path]
    if (text === undefined) throw new Error(`renderer file ${path}: File not found`)
    return text
  },
  loadTexture: async ({ url }: { url: string }) => {
    if (url === 'missing.png') throw new Error('the image did not load')
    return new Texture()
  },
}

function parts(root: Object3D): Mesh[] {
  const meshes: Mesh[] = []
  root.traverse((object) => {
    if (object instanceof Mesh) meshes.push(object)
  })
  return meshes.sort((a, b) => a.name.localeCompare(b.name))
}

describe('buildScene', () => {
  it('paints each part with the scene material of its index and binds the uniforms', async () => {
    const settings: SceneSettings = {
      materials: {
        '0': {
          vertexShader: 'pass.vert',
          fragmentShader: 'tint.frag',
          uniforms: {
            tint: { type: 'color', value: '#ff8000' },
            strength: { type: 'float', value: 0.5 },
            steps: { type: 'int', value: 3 },
            isOn: { type: 'bool', value: true },
            offset: { type: 'vec2', value: [1, 2] },
            light: { type: 'vec3', value: [0, 0, 1] },
            grain: { type: 'sampler2d', value: { url: 'grain.png', external: false } },
          },
        },
      },
    }
    const { scene, bounds, warnings } = await buildScene({ model: await loadModel(), settings, ...loaders })
    expect(warnings).toEqual([])
    const [box, cube] = parts(scene)
    expect(box!.name).toBe('part-0')
    const material = box!.material as ShaderMaterial
    expect(material).toBeInstanceOf(ShaderMaterial)
    expect(material.fragmentShader).toContain('uniform vec3 tint;')
    // The colour's sRGB components as given: the shader's output is not converted either.
    expect((material.uniforms.tint!.value as Color).toArray().map((value) => Math.round(value * 255))).toEqual([
      255, 128, 0,
    ])
    expect(material.uniforms.strength!.value).toBe(0.5)
    expect(material.uniforms.steps!.value).toBe(3)
    expect(material.uniforms.isOn!.value).toBe(true)
    expect(material.uniforms.offset!.value).toEqual(new Vector2(1, 2))
    expect(material.uniforms.light!.value).toEqual(new Vector3(0, 0, 1))
    expect(material.uniforms.grain!.value).toBeInstanceOf(Texture)
    // Part 1 has no material: its own colour, matte.
    expect(cube!.material).toBeInstanceOf(MeshStandardMaterial)
    // The model stays in its Z-up millimetres: bounds x 0..23, y 0..20, z 0..5.
    expect(bounds.center.toArray().map((value) => Math.round(value * 10) / 10)).toEqual([11.5, 10, 2.5])
  })

  it('gives a part without a scene material its OpenSCAD colour, read as sRGB', async () => {
    const { scene } = await buildScene({ model: await loadModel(), settings: { materials: {} }, ...loaders })
    const box = parts(scene)[0]!.material as MeshStandardMaterial
    expect(box.color.getHexString(SRGBColorSpace)).toBe('ff0000')
  })

  it('accepts GLSL ES 3 shaders that say so', async () => {
    const settings = { materials: { '1': { vertexShader: 'pass.vert', fragmentShader: 'glsl3.frag' } } }
    const { scene } = await buildScene({ model: await loadModel(), settings, ...loaders })
    const material = parts(scene)[1]!.material as ShaderMaterial
    expect(material.glslVersion).toBe('300 es')
    expect(material.fragmentShader).not.toContain('#version')
  })

  it('keeps the part colour and warns when a shader file is missing, and blanks a missing texture', async () => {
    // Uniforms the schema refuses: scene building treats every value as untrusted all the same.
    const settings = {
      materials: {
        '0': { vertexShader: 'pass.vert', fragmentShader: 'gone.frag' },
        '1': {
          vertexShader: 'pass.vert',
          fragmentShader: 'tint.frag',
          uniforms: {
            grain: { type: 'sampler2d', value: { url: 'missing.png', external: false } },
            tint: { type: 'vec3', value: [1, 2] },
            odd: { type: 'mat4', value: [] },
          },
        },
      },
    } as unknown as SceneSettings
    const { scene, warnings } = await buildScene({ model: await loadModel(), settings, ...loaders })
    const [box, cube] = parts(scene)
    expect(box!.material).toBeInstanceOf(MeshStandardMaterial)
    const material = cube!.material as ShaderMaterial
    expect(material.uniforms.grain!.value).toBeInstanceOf(Texture)
    expect(material.uniforms.tint).toBeUndefined()
    expect(warnings.sort()).toEqual([
      'material 0: renderer file gone.frag: File not found; part 0 shown in its own colour',
      'material 1: uniform grain: texture missing.png could not be loaded (the image did not load), rendered blank',
      'material 1: uniform odd: unknown type "mat4"',
      'material 1: uniform tint: needs an array of 3 numbers',
    ])
  })
})
