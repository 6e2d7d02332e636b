import { AmbientLight, Box3, HemisphereLight, Mesh, Scene, Sphere, type Object3D } from 'three'
import { createDefaultMaterial } from '@/lib/render/create-default-material'
import { createShaderMaterial, type SceneLoaders } from '@/lib/render/create-shader-material'
import type { SceneSettings } from '@/lib/renderers/schemas'

export interface BuildSceneOptions extends SceneLoaders {
  /** The parsed model GLB (parse-glb.ts): meshes carry `userData.partIndex`. */
  model: Object3D
  settings: SceneSettings
}

export interface BuiltScene {
  scene: Scene
  /** The model's bounding sphere in world (= model) coordinates, for framing the camera. */
  bounds: Sphere
  /** What did not work out (missing shader files, bad uniforms, refused textures), one line each. */
  warnings: string[]
}

/**
 * The scene the viewer and the server renderer draw: the model in its own Z-up millimetres,
 * each part painted by the scene material of its index (a ShaderMaterial) or, without one, by
 * a matte material in its OpenSCAD colour; ambient and hemisphere light (sky along +Z). The
 * light that moves with the camera is added by addHeadlight().
 */
export async function buildScene({ model, settings, ...loaders }: BuildSceneOptions): Promise<BuiltScene> {
  const warnings: string[] = []
  const scene = new Scene()
  scene.add(new AmbientLight(0xffffff, 0.6))
  const hemisphere = new HemisphereLight(0xffffff, 0x9a9a9a, 1.2)
  hemisphere.position.set(0, 0, 1)
  scene.add(hemisphere)

  const meshes: Mesh[] = []
  model.traverse((object) => {
    if (object instanceof Mesh) meshes.push(object as Mesh)
  })
  await Promise.all(
    meshes.map(async (mesh) => {
      const key = String(partIndexOf(mesh))
      const setting = Object.hasOwn(settings.materials, key) ? settings.materials[key] : undefined
      const loaded = mesh.material
      mesh.material = createDefaultMaterial(loaded)
      // Kept for check-shaders.ts, which falls back to it when the scene material does not compile.
      mesh.userData.defaultMaterial = mesh.material
      if (setting) {
        try {
          mesh.material = await createShaderMaterial(key, setting, loaders, warnings)
        } catch (error) {
          warnings.push(`material ${key}: ${(error as Error).message}; part ${key} shown in its own colour`)
        }
      }
      for (const material of [loaded].flat()) material.dispose()
    }),
  )
  scene.add(model)
  model.updateMatrixWorld(true)
  const bounds = new Box3().setFromObject(model).getBoundingSphere(new Sphere())
  return { scene, bounds, warnings }
}

/** write-glb.ts puts the part index into node extras, which GLTFLoader hands over as userData. */
export function partIndexOf(mesh: Mesh): number | string {
  const fromExtras: unknown = mesh.userData.partIndex ?? mesh.parent?.userData.partIndex
  if (typeof fromExtras === 'number') return fromExtras
  return /^part-(\d+)$/.exec(mesh.name)?.[1] ?? mesh.name
}
