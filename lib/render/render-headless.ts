import { Vector2, WebGLRenderer } from 'three'
import { addHeadlight } from '@/lib/render/add-headlight'
import { buildScene } from '@/lib/render/build-scene'
import { createCamera } from '@/lib/render/camera'
import { checkShaders } from '@/lib/render/check-shaders'
import { disposeScene } from '@/lib/render/dispose-scene'
import { createSceneLoaders } from '@/lib/render/load-scene-files'
import type { HeadlessRenderArgs, HeadlessRenderResult } from '@/lib/render/headless-contract'
import { parseGlb } from '@/lib/render/parse-glb'

const QUALITY = 0.92
let sharedRenderer: WebGLRenderer | null = null

/**
 * Runs in the headless page: reads the model it is given and loads the scene's files from this
 * server, builds the scene exactly as the viewer does, renders one frame of exactly width x
 * height and encodes it. png and webp keep a transparent background, jpeg gets white.
 */
export async function renderHeadless(args: HeadlessRenderArgs): Promise<HeadlessRenderResult> {
  const started = performance.now()
  // The browser's own base64 decoder.
  const glb = await (await fetch(`data:model/gltf-binary;base64,${args.model}`)).arrayBuffer()
  const model = await parseGlb(glb)
  const modelLoaded = performance.now()
  const built = await buildScene({ model, settings: args.settings, ...createSceneLoaders(args.files) })
  const sceneBuilt = performance.now()
  try {
    const camera = createCamera(args.camera, built.bounds, args.width / args.height)
    addHeadlight(built.scene, camera, args.lightScale)
    const renderer = getRenderer()
    if (renderer.getContext().isContextLost()) throw new Error('WebGL context lost')
    // Resizing reallocates the drawing buffers (multisampled on a CPU renderer): only for a new size.
    const size = renderer.getSize(new Vector2())
    if (size.x !== args.width || size.y !== args.height) renderer.setSize(args.width, args.height, false)
    renderer.setClearColor(args.type === 'jpeg' ? 0xffffff : 0x000000, args.type === 'jpeg' ? 1 : 0)
    const warnings = [...built.warnings, ...checkShaders(renderer, built.scene, camera)]
    renderer.render(built.scene, camera)
    const dataUrl = renderer.domElement.toDataURL(`image/${args.type}`, QUALITY)
    const timings = {
      model: modelLoaded - started,
      scene: sceneBuilt - modelLoaded,
      draw: performance.now() - sceneBuilt,
    }
    return { dataUrl, warnings, timings }
  } finally {
    disposeScene(built.scene)
  }
}

function getRenderer(): WebGLRenderer {
  sharedRenderer ??= new WebGLRenderer({ antialias: true, alpha: true, preserveDrawingBuffer: true })
  return sharedRenderer
}
