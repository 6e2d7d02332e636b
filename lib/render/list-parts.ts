import { Color, Mesh, type Material, type Object3D } from 'three'
import { partIndexOf } from '@/lib/render/build-scene'

export interface ModelPart {
  /** The scene settings' material key that paints this part. */
  key: string
  /** The part's own colour from the model, as #rrggbb. */
  color: string | null
}

/** The parts of a parsed model GLB (parse-glb.ts), in part order, before buildScene() repaints them. */
export function listParts(model: Object3D): ModelPart[] {
  const parts = new Map<string, ModelPart>()
  model.traverse((object) => {
    if (!(object instanceof Mesh)) return
    const key = String(partIndexOf(object))
    const material = [object.material as Material | Material[]].flat()[0] as (Material & { color?: unknown }) | undefined
    if (!parts.has(key)) parts.set(key, { key, color: material?.color instanceof Color ? `#${material.color.getHexString()}` : null })
  })
  return [...parts.values()].sort((a, b) => Number(a.key) - Number(b.key) || a.key.localeCompare(b.key))
}
