import { Material, Mesh, ShaderMaterial, Texture, type Object3D } from 'three'

/** Frees the GPU resources of everything buildScene() made, so a long-lived renderer does not grow. */
export function disposeScene(root: Object3D): void {
  root.traverse((object) => {
    if (!(object instanceof Mesh)) return
    ;(object as Mesh).geometry.dispose()
    const materials = [object.material, object.userData.defaultMaterial as unknown].flat()
    for (const material of materials) {
      if (!(material instanceof Material)) continue
      for (const value of Object.values(material)) if (value instanceof Texture) value.dispose()
      if (material instanceof ShaderMaterial) {
        for (const uniform of Object.values(material.uniforms))
          if (uniform.value instanceof Texture) uniform.value.dispose()
      }
      material.dispose()
    }
  })
}
