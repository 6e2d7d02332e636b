import { Color, Mesh, type Object3D } from 'three'
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
    const mesh = object as Mesh
    const key = String(partIndexOf(mesh))
    const [material] = [mesh.material].flat()
    const color =
      material && 'color' in material && material.color instanceof Color ? `#${material.color.getHexString()}` : null
    if (!parts.has(key)) parts.set(key, { key, color })
  })
  return [...parts.values()].sort((a, b) => Number(a.key) - Number(b.key) || a.key.localeCompare(b.key))
}
