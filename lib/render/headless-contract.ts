// What the server renderer (image-renderer.ts) and the headless page (app/render/headless)
// exchange: plain JSON both ways, through Playwright's page.evaluate.
import type { CameraParameters } from '@/lib/render/camera'
import type { RendererFiles } from '@/lib/render/load-scene-files'
import type { ImageType } from '@/lib/renderers/image-query'
import type { SceneSettings } from '@/lib/renderers/schemas'

export interface HeadlessRenderArgs {
  /** The model, GLB in base64: the server has it at hand, and handing it over costs no request. */
  model: string
  /** A renderer file's URL is prefix + its path (each segment encoded) + query (the renderingKey). */
  files: RendererFiles
  settings: SceneSettings
  width: number
  height: number
  type: ImageType
  camera: CameraParameters
  /** The image endpoint's `s`: scales the light that moves with the camera. */
  lightScale: number
}

/** Milliseconds per stage, answered as Server-Timing. */
export type Timings = Record<string, number>

export interface HeadlessRenderResult {
  dataUrl: string
  warnings: string[]
  timings: Timings
}

declare global {
  interface Window {
    renderScene?: (args: HeadlessRenderArgs) => Promise<HeadlessRenderResult>
  }
}
