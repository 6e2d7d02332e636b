import { MATTE, type Mesh, type Rgba } from '@/lib/cad/mesh/mesh'
import type { Material, SceneSettings, Uniform } from '@/lib/renderers/schemas'

// AR viewers (Quick Look, Scene Viewer) draw physically based materials only: a scene's custom
// shader cannot run there. Where a material's uniforms name what a physically based material has
// (a colour, metalness, roughness) the AR files take them; everything else falls back to the
// part's own colour, matte, as the viewer draws a part whose shader does not compile (docs/ar.md).

const COLOUR_NAMES = ['color', 'colour', 'basecolor', 'diffuse', 'albedo', 'tint']
const METALLIC_NAMES = ['metallic', 'metalness', 'metal']
const ROUGHNESS_NAMES = ['roughness']

/** A uniform's name as matched: case and a `u_` prefix or underscores ignored (`u_baseColor` is `basecolor`). */
const plainName = (name: string) => name.replace(/^u_/i, '').replace(/_/g, '').toLowerCase()

interface ArLook {
  color?: Rgba
  metallic?: number
  roughness?: number
}

/** What of a scene material an AR file can show; null when nothing maps. */
function arLookOf({ uniforms = {} }: Material): ArLook | null {
  const find = (names: string[]) => Object.entries(uniforms).find(([name]) => names.includes(plainName(name)))?.[1]
  const color = colourOf(find(COLOUR_NAMES))
  const metallic = factorOf(find(METALLIC_NAMES))
  const roughness = factorOf(find(ROUGHNESS_NAMES))
  if (!color && metallic === undefined && roughness === undefined) return null
  return { color, metallic, roughness }
}

const looks = new WeakMap<Mesh, Map<string, Mesh>>()

/** The mesh with the scene's materials as its parts' colours and surfaces where they map; the mesh itself when none does. */
export function withSceneLook(mesh: Mesh, { materials }: SceneSettings): Mesh {
  const mapped = Object.entries(materials).flatMap(([key, material]) => {
    const look = arLookOf(material)
    return look ? [[Number(key), look] as const] : []
  })
  if (mapped.length === 0) return mesh
  const key = JSON.stringify(mapped)
  const known = looks.get(mesh) ?? new Map<string, Mesh>()
  looks.set(mesh, known)
  const cached = known.get(key)
  if (cached) return cached
  const byPart = new Map(mapped)
  const looked: Mesh = {
    parts: mesh.parts.map((part, n) => {
      const look = byPart.get(n)
      if (!look) return part
      return {
        ...part,
        color: look.color ?? part.color,
        surface: { metallic: look.metallic ?? MATTE.metallic, roughness: look.roughness ?? MATTE.roughness },
      }
    }),
  }
  known.set(key, looked)
  return looked
}

/** A colour uniform (#rrggbb) or a vec3/vec4 of 0..1 channels, taken as sRGB like the model's colours. */
function colourOf(uniform: Uniform | undefined): Rgba | undefined {
  if (uniform?.type === 'color') {
    const [r, g, b] = [1, 3, 5].map((at) => parseInt(uniform.value.slice(at, at + 2), 16) / 255)
    return [r!, g!, b!, 1]
  }
  if (uniform?.type === 'vec3' || uniform?.type === 'vec4') {
    const [r, g, b, a = 1] = uniform.value.map(unit)
    return [r!, g!, b!, a]
  }
  return undefined
}

function factorOf(uniform: Uniform | undefined): number | undefined {
  return uniform?.type === 'float' ? unit(uniform.value) : undefined
}

const unit = (value: number) => Math.min(1, Math.max(0, value))
