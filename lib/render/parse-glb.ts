import { Matrix4, Mesh, type Group } from 'three'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'

/** glTF's metres and Y up (write-glb.ts) back to the model's millimetres and Z up: a quarter turn about X, scaled. */
const TO_MODEL = new Matrix4().makeRotationX(Math.PI / 2).multiply(new Matrix4().makeScale(1000, 1000, 1000))

/**
 * A model GLB (lib/cad/mesh/write-glb.ts: node `part-<n>` with extras.partIndex) as three.js
 * objects in the model's own coordinates, millimetres and Z up, the geometry itself turned back so
 * that a scene's shaders see the positions the model has.
 */
export async function parseGlb(bytes: ArrayBuffer): Promise<Group> {
  const gltf = await new GLTFLoader().parseAsync(bytes, '')
  gltf.scene.traverse((object) => {
    if (object instanceof Mesh) (object as Mesh).geometry.applyMatrix4(TO_MODEL)
  })
  return gltf.scene
}
