import type { Group } from 'three'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'

/** A model GLB (lib/cad/mesh/write-glb.ts: node `part-<n>` with extras.partIndex, mm, Z up) as three.js objects, untransformed. */
export async function parseGlb(bytes: ArrayBuffer): Promise<Group> {
  const gltf = await new GLTFLoader().parseAsync(bytes, '')
  return gltf.scene
}
