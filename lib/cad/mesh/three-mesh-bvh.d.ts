// The ES module build of three-mesh-bvh (lib/cad/mesh/printability.ts) has the package's types.
declare module 'three-mesh-bvh/build/index.module.js' {
  export * from 'three-mesh-bvh'
}
