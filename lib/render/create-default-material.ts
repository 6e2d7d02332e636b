import { Color, MeshStandardMaterial, type Material } from 'three'
import { MATTE } from '@/lib/cad/mesh/mesh'

/**
 * The look of a part without a scene material: its OpenSCAD colour and surface as write-glb.ts stores
 * them (linear, as GLTFLoader reads them; matte unless a scene material maps). Front faces only (three's default): CAD meshes are
 * closed, and drawing both sides doubles the time on SwiftShader.
 */
export function createDefaultMaterial(loaded: Material | Material[]): MeshStandardMaterial {
  const source = Array.isArray(loaded) ? loaded[0] : loaded
  const standard = source instanceof MeshStandardMaterial ? source : null
  const opacity = source?.opacity ?? 1
  return new MeshStandardMaterial({
    color: standard?.color.clone() ?? new Color(0.8, 0.8, 0.8),
    roughness: standard?.roughness ?? MATTE.roughness,
    metalness: standard?.metalness ?? MATTE.metallic,
    opacity,
    transparent: opacity < 1,
  })
}
