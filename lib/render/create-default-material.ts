import { Color, MeshStandardMaterial, SRGBColorSpace, type Material } from 'three'

/**
 * The look of a part without a scene material: its OpenSCAD colour, matte. GLTFLoader reads
 * baseColorFactor as linear, but write-glb.ts stores OpenSCAD's sRGB values, so they are
 * taken as sRGB here to show the colours the designer chose. Front faces only (three's
 * default): CAD meshes are closed, and drawing both sides doubles the time on SwiftShader.
 */
export function createDefaultMaterial(loaded: Material | Material[]): MeshStandardMaterial {
  const source = Array.isArray(loaded) ? loaded[0] : loaded
  const factor = source instanceof MeshStandardMaterial ? source.color : new Color(0.8, 0.8, 0.8)
  const opacity = source?.opacity ?? 1
  return new MeshStandardMaterial({
    color: new Color().setRGB(factor.r, factor.g, factor.b, SRGBColorSpace),
    roughness: 0.7,
    metalness: 0,
    opacity,
    transparent: opacity < 1,
  })
}
