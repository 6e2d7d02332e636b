import {
  Color,
  DataTexture,
  GLSL3,
  RepeatWrapping,
  ShaderMaterial,
  Vector2,
  Vector3,
  Vector4,
  type IUniform,
  type Texture,
} from 'three'
import type { Material, Uniform } from '@/lib/renderers/schemas'

/** A sampler2d uniform's value: a path in the configurator's `renderer` directory, or an external http(s) URL. */
export type SamplerValue = Extract<Uniform, { type: 'sampler2d' }>['value']

/** How scene building reaches the configurator's renderer files and textures. */
export interface SceneLoaders {
  /** A file of the configurator's `renderer` directory as text (shader sources). */
  loadText: (path: string) => Promise<string>
  /** Rejects when the texture cannot be had; the uniform then gets a blank texture. */
  loadTexture: (sampler: SamplerValue) => Promise<Texture>
}

const GLSL3_DIRECTIVE = /^\s*#version\s+300\s+es[^\n]*\n/

/** Appended to the fragment shader so a compile error can be traced to its material (check-shaders.ts). */
export function materialMarker(key: string): string {
  return `\n// paraform material ${JSON.stringify(key)}\n`
}

/**
 * A ShaderMaterial (three's built-in matrices and attributes are declared for the shaders) from
 * one material setting. Missing shader files reject; a bad uniform or texture is skipped with a
 * warning so that the rest of the material still renders.
 */
export async function createShaderMaterial(
  key: string,
  setting: Material,
  loaders: SceneLoaders,
  warnings: string[],
): Promise<ShaderMaterial> {
  const [vertexSource, fragmentSource] = await Promise.all([
    loaders.loadText(setting.vertexShader),
    loaders.loadText(setting.fragmentShader),
  ])
  // three adds `#version 300 es` itself; shaders written for GLSL ES 3 say so on their first line.
  const isGlsl3 = GLSL3_DIRECTIVE.test(fragmentSource) || GLSL3_DIRECTIVE.test(vertexSource)
  const uniforms: Record<string, IUniform> = {}
  await Promise.all(
    Object.entries(setting.uniforms ?? {}).map(async ([name, uniform]) => {
      try {
        uniforms[name] = { value: await toUniformValue(uniform, loaders) }
      } catch (error) {
        warnings.push(`material ${key}: uniform ${name}: ${(error as Error).message}`)
        if (uniform.type === 'sampler2d') uniforms[name] = { value: blankTexture() }
      }
    }),
  )
  return new ShaderMaterial({
    name: `material ${key}`,
    vertexShader: vertexSource.replace(GLSL3_DIRECTIVE, ''),
    fragmentShader: fragmentSource.replace(GLSL3_DIRECTIVE, '') + materialMarker(key),
    uniforms,
    ...(isGlsl3 && { glslVersion: GLSL3 }),
  })
}

type UniformValue = number | boolean | Vector2 | Vector3 | Vector4 | Color | Texture

async function toUniformValue({ type, value }: Uniform, loaders: SceneLoaders): Promise<UniformValue> {
  switch (type) {
    case 'float':
      return finiteNumber(value)
    case 'int':
      return Math.trunc(finiteNumber(value))
    case 'bool':
      if (typeof value !== 'boolean') throw new Error('a bool needs true or false')
      return value
    case 'vec2':
      return new Vector2(...numbers(value, 2))
    case 'vec3':
      return new Vector3(...numbers(value, 3))
    case 'vec4':
      return new Vector4(...numbers(value, 4))
    case 'color':
      return toColor(value)
    case 'sampler2d': {
      if (!isSampler(value)) throw new Error('a sampler2d needs {url, external}')
      const texture = await loaders.loadTexture(value).catch((error: unknown) => {
        throw new Error(`texture ${value.url} could not be loaded (${(error as Error).message}), rendered blank`)
      })
      texture.wrapS = texture.wrapT = RepeatWrapping
      texture.needsUpdate = true
      return texture
    }
    default:
      throw new Error(`unknown type ${JSON.stringify(type)}`)
  }
}

function finiteNumber(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error('needs a number')
  return value
}

function numbers(value: unknown, count: number): number[] {
  if (!Array.isArray(value) || value.length !== count) throw new Error(`needs an array of ${count} numbers`)
  return value.map(finiteNumber)
}

/** The colour's sRGB components as given ("#ff8000" or [1, 0.5, 0]): the shader's output is not converted either. */
function toColor(value: unknown): Color {
  if (Array.isArray(value)) return new Color().fromArray(numbers(value, 3))
  if (typeof value !== 'string') throw new Error('a color needs "#rrggbb" or [r, g, b]')
  const color = new Color()
  color.setStyle(value)
  return color.convertLinearToSRGB()
}

function isSampler(value: unknown): value is SamplerValue {
  return typeof value === 'object' && value !== null && typeof (value as SamplerValue).url === 'string'
}

function blankTexture(): Texture {
  const texture = new DataTexture(new Uint8Array([255, 255, 255, 255]), 1, 1)
  texture.needsUpdate = true
  return texture
}
