// The part of occt-import-js (OpenCascade's STEP reader as WASM) the tests read STEP with.
declare module 'occt-import-js' {
  interface ImportedMesh {
    name: string
    color?: [number, number, number]
    attributes: { position: { array: number[] } }
    index: { array: number[] }
  }
  interface Occt {
    ReadStepFile(
      content: Uint8Array,
      params: {
        linearUnit?: 'millimeter'
        linearDeflectionType?: 'bounding_box_ratio' | 'absolute_value'
        linearDeflection?: number
        angularDeflection?: number
      } | null,
    ): { success: boolean; meshes: ImportedMesh[] }
  }
  export default function occtimportjs(): Promise<Occt>
}
