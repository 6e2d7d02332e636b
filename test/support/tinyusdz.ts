import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

// TinyUSDZ (an independent USD reader, C++ built to WASM for browsers) in Node, for the tests that
// read back the USDZ Paraform writes: its build refuses Node, so for its start it is made to see
// a browser's renderer process (a `window`, `process.type`), and it gets its WASM as bytes.

interface UsdMesh {
  primName: string
  points: Float32Array
  faceVertexIndices: Uint32Array
  materialId: number
}

interface UsdMaterial {
  diffuseColor?: [number, number, number]
  opacity?: number
}

interface TinyUsdz {
  loadFromBinary(bytes: Uint8Array, name: string): boolean
  loadAsLayerFromBinary(bytes: Uint8Array, name: string): boolean
  error(): string
  numMeshes(): number
  getMesh(index: number): UsdMesh
  getMaterial(index: number): UsdMaterial
  layerToString(): string
}

type Native = { TinyUSDZLoaderNative: new () => TinyUsdz }

let native: Promise<Native> | undefined

function start(): Promise<Native> {
  const require = createRequire(import.meta.url)
  const directory = path.dirname(require.resolve('tinyusdz/package.json'))
  const global = globalThis as { window?: unknown }
  const runtime = process as { type?: string }
  global.window = globalThis
  runtime.type = 'renderer'
  const started = import(path.join(directory, 'tinyusdz.js')) as Promise<{
    default: (options: { wasmBinary: Uint8Array }) => Promise<Native>
  }>
  return started
    .then(({ default: init }) => init({ wasmBinary: fs.readFileSync(path.join(directory, 'tinyusdz.wasm')) }))
    .finally(() => {
      delete global.window
      delete runtime.type
    })
}

/** The USDZ as TinyUSDZ reads it: its meshes and materials as rendered, and its layer written back as USDA. */
export async function readUsdz(bytes: Uint8Array) {
  const { TinyUSDZLoaderNative } = await (native ??= start())
  const scene = new TinyUSDZLoaderNative()
  if (!scene.loadFromBinary(bytes, 'model.usdz')) throw new Error(`TinyUSDZ: ${scene.error()}`)
  const layer = new TinyUSDZLoaderNative()
  if (!layer.loadAsLayerFromBinary(bytes, 'model.usdz')) throw new Error(`TinyUSDZ: ${layer.error()}`)
  const meshes = Array.from({ length: scene.numMeshes() }, (_, index) => scene.getMesh(index))
  return {
    meshes,
    materials: meshes.map((mesh) => scene.getMaterial(mesh.materialId)),
    layer: layer.layerToString(),
  }
}
