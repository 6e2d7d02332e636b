import { TextureLoader, WebGLRenderer, type Texture } from 'three'
import { addHeadlight } from '@/lib/render/add-headlight'
import { buildScene } from '@/lib/render/build-scene'
import { createCamera } from '@/lib/render/camera'
import { checkShaders } from '@/lib/render/check-shaders'
import { disposeScene } from '@/lib/render/dispose-scene'
import type { HeadlessRenderArgs, HeadlessRenderResult } from '@/lib/render/headless-contract'
import { parseGlb } from '@/lib/render/parse-glb'
import type { SamplerValue } from '@/lib/render/scene-settings'

const QUALITY = 0.92
let sharedRenderer: WebGLRenderer | null = null

/**
 * Runs in the headless page: loads the model and the scene's files from this server, builds
 * the scene exactly as the viewer does, renders one frame of exactly width x height and
 * encodes it. png and webp keep a transparent background, jpeg gets white.
 */
export async function renderHeadless(args: HeadlessRenderArgs): Promise<HeadlessRenderResult> {
  const started = performance.now()
  const response = await fetch(args.modelUrl)
  if (!response.ok) return { ok: false, status: response.status, message: await errorMessage(response) }
  const model = await parseGlb(await response.arrayBuffer())
  const modelLoaded = performance.now()
  const fileUrl = (path: string) => {
    const segments = path.split('/')
    // The URL resolver would apply `..`, leading the key to another endpoint of the session.
    if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) throw new Error(`bad renderer file path ${path}`)
    return args.files.prefix + segments.map(encodeURIComponent).join('/') + args.files.query
  }
  const built = await buildScene({
    model,
    settings: args.settings,
    loadText: async (path) => {
      const file = await fetch(fileUrl(path))
      if (!file.ok) throw new Error(`renderer file ${path}: ${await errorMessage(file)}`)
      return file.text()
    },
    loadTexture: (sampler) => loadTexture(sampler, fileUrl),
  })
  const sceneBuilt = performance.now()
  try {
    const camera = createCamera(args.camera, built.bounds, args.width / args.height)
    addHeadlight(built.scene, camera, args.lightScale)
    const renderer = getRenderer()
    if (renderer.getContext().isContextLost()) throw new Error('WebGL context lost')
    renderer.setSize(args.width, args.height, false)
    renderer.setClearColor(args.type === 'jpeg' ? 0xffffff : 0x000000, args.type === 'jpeg' ? 1 : 0)
    const warnings = [...built.warnings, ...checkShaders(renderer, built.scene, camera)]
    renderer.render(built.scene, camera)
    const dataUrl = renderer.domElement.toDataURL(`image/${args.type}`, QUALITY)
    const timings = { model: modelLoaded - started, scene: sceneBuilt - modelLoaded, draw: performance.now() - sceneBuilt }
    return { ok: true, dataUrl, warnings, timings }
  } finally {
    disposeScene(built.scene)
  }
}

function getRenderer(): WebGLRenderer {
  sharedRenderer ??= new WebGLRenderer({ antialias: true, alpha: true, preserveDrawingBuffer: true })
  sharedRenderer.setPixelRatio(1)
  return sharedRenderer
}

async function loadTexture(sampler: SamplerValue, fileUrl: (path: string) => string): Promise<Texture> {
  // External textures leave the page only through the server's route (image-renderer.ts), which
  // fetches public addresses only.
  if (sampler.external && !/^https?:\/\//i.test(sampler.url)) throw new Error('an external texture needs an http(s) URL')
  // ImageLoader rejects with a bare Event; the server's route or the files endpoint knows why.
  return new TextureLoader().loadAsync(sampler.external ? sampler.url : fileUrl(sampler.url)).catch(() => {
    throw new Error('the image did not load')
  })
}

async function errorMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => '')
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } }
    if (typeof body.error?.message === 'string') return body.error.message
  } catch {
    // not our JSON error body
  }
  return `HTTP ${response.status}`
}
