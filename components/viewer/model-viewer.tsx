'use client'

import { AdaptiveDpr, OrbitControls } from '@react-three/drei'
import { addAfterEffect, Canvas, useThree } from '@react-three/fiber'
import { memo, useEffect, useRef, useState, type RefObject } from 'react'
import { TOUCH, Vector3, type PerspectiveCamera, type Scene, type Sphere } from 'three'
import type { OrbitControls as OrbitControlsImpl } from 'three-stdlib'
import { addHeadlight } from '@/lib/render/add-headlight'
import { buildScene } from '@/lib/render/build-scene'
import { createCamera } from '@/lib/render/camera'
import { checkShaders } from '@/lib/render/check-shaders'
import { disposeScene } from '@/lib/render/dispose-scene'
import { createSceneLoaders, type RendererFiles } from '@/lib/render/load-scene-files'
import { listParts, type ModelPart } from '@/lib/render/list-parts'
import { parseGlb } from '@/lib/render/parse-glb'
import { isSoftwareRenderer } from '@/components/viewer/is-software-renderer'
import { downloadModel } from '@/components/viewer/model-download'
import type { SceneSettings } from '@/lib/renderers/schemas'

/** `modelVersion`: the version the status is about. */
export type ViewerStatus =
  | { state: 'loading' }
  | { state: 'ready'; modelVersion: number; warnings: string[]; parts: ModelPart[] }
  /** `notBuilt`: the values' model did not build (409); `showsEarlier`: an earlier model that did stays on screen. */
  | { state: 'error'; modelVersion: number; message: string; notBuilt: boolean; showsEarlier: boolean }

export interface ModelViewerProps {
  /** Same-origin URL of the session's GLB, carrying its modelKey. */
  modelUrl: string
  /** Changes whenever the session's model changed; the viewer then loads modelUrl again. */
  modelVersion: number
  settings: SceneSettings
  files: RendererFiles
  onStatus?: (status: ViewerStatus) => void
  className?: string
}

/**
 * The session's model, drawn only on demand (orbiting, resizing, a new model), which keeps a
 * big model usable on a CPU renderer. The wrapper's `data-state`, `data-model-version` and
 * `data-draw-count` (scenes built and drawn) change after the frame showing a newly built
 * scene was drawn (for tests and embedding pages). Memoized: the page around it re-renders on
 * every slider move, and each render of the canvas costs a CPU renderer a frame.
 */
export const ModelViewer = memo(function ModelViewer({ className = '', ...props }: ModelViewerProps) {
  const wrapper = useRef<HTMLDivElement>(null)
  const [isSoftware] = useState(isSoftwareRenderer)
  const [homeRequests, setHomeRequests] = useState(0)
  const [isFullScreen, setIsFullScreen] = useState(false)
  useEffect(() => {
    if (wrapper.current) wrapper.current.dataset.state = 'loading'
    // Esc and the back gesture leave full screen too: the label follows the document.
    const follow = () => setIsFullScreen(document.fullscreenElement === wrapper.current)
    document.addEventListener('fullscreenchange', follow)
    return () => document.removeEventListener('fullscreenchange', follow)
  }, [])
  return (
    <div
      ref={wrapper}
      data-testid="model-viewer"
      className={`relative h-full w-full touch-pan-y [&:fullscreen]:bg-stone-100 ${className}`}
    >
      <Canvas
        frameloop="demand"
        dpr={isSoftware ? 1 : [1, 1.5]}
        gl={{ antialias: !isSoftware }}
        performance={{ min: 0.5, debounce: 300 }}
        role="img"
        aria-label="3D view of the configured product; drag to rotate (two fingers on a touch screen), scroll or pinch to zoom"
      >
        <ModelScene {...props} wrapper={wrapper} homeRequests={homeRequests} />
        {/* While orbiting, frames are drawn at half resolution: a CPU renderer is bound by pixels. */}
        <AdaptiveDpr />
      </Canvas>
      <div className="absolute bottom-3 right-3 flex gap-2">
        <ViewButton label="Reset view" onClick={() => setHomeRequests((count) => count + 1)} />
        {/* A page that frames the viewer without allowing full screen refuses it: nothing to tell the customer. */}
        <ViewButton
          label={isFullScreen ? 'Exit full screen' : 'Full screen'}
          onClick={() =>
            void (isFullScreen ? document.exitFullscreen() : wrapper.current?.requestFullscreen())?.catch(() => {})
          }
        />
      </div>
    </div>
  )
})

function ViewButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="rounded-full bg-white/90 px-3 py-1 text-xs font-medium text-stone-800 shadow-sm hover:bg-white focus-visible:outline-2 focus-visible:outline-stone-900"
    >
      {label}
    </button>
  )
}

/** No one-finger gesture: a finger alone scrolls the page. */
const ONE_FINGER_SCROLLS = { TWO: TOUCH.DOLLY_ROTATE }

interface Shown {
  scene: Scene
  camera: PerspectiveCamera
  /** The model's bounding sphere, which the view is fitted to. */
  bounds: Sphere
}

function ModelScene({
  modelUrl,
  modelVersion,
  settings,
  files,
  onStatus,
  wrapper,
  homeRequests,
}: Omit<ModelViewerProps, 'className'> & { wrapper: RefObject<HTMLDivElement | null>; homeRequests: number }) {
  const gl = useThree((state) => state.gl)
  const root = useThree((state) => state.scene)
  const set = useThree((state) => state.set)
  const invalidate = useThree((state) => state.invalidate)
  const [shown, setShown] = useState<Shown | null>(null)
  const shownRef = useRef<Shown | null>(null)
  const glbRef = useRef<{ url: string; version: number; bytes: ArrayBuffer } | null>(null)
  const drawnVersion = useRef<number | null>(null)
  const drawCount = useRef(0)
  const onStatusRef = useRef(onStatus)
  onStatusRef.current = onStatus

  useEffect(
    () =>
      addAfterEffect(() => {
        if (drawnVersion.current === null || !wrapper.current) return
        wrapper.current.dataset.modelVersion = String(drawnVersion.current)
        wrapper.current.dataset.drawCount = String(++drawCount.current)
        wrapper.current.dataset.state = 'ready'
        drawnVersion.current = null
      }),
    [wrapper],
  )

  useEffect(() => {
    const controller = new AbortController()
    onStatusRef.current?.({ state: 'loading' })
    if (wrapper.current) wrapper.current.dataset.state = 'loading'
    void (async () => {
      try {
        const cached = glbRef.current
        let bytes = cached?.url === modelUrl && cached.version === modelVersion ? cached.bytes : null
        if (!bytes) {
          const download = await downloadModel(modelUrl, modelVersion, controller.signal)
          if (controller.signal.aborted) return
          if ('status' in download) {
            if (download.status === 409) return notBuilt(download.message)
            throw new Error(download.message)
          }
          bytes = download.bytes
          glbRef.current = { url: modelUrl, version: modelVersion, bytes }
        }
        const model = await parseGlb(bytes)
        const parts = listParts(model)
        const built = await buildScene({ model, settings, ...createSceneLoaders(files, controller.signal) })
        if (controller.signal.aborted) return disposeScene(built.scene)
        const { width, height } = gl.domElement.getBoundingClientRect()
        const previous = shownRef.current
        // A new model keeps the direction the customer orbited to, framed to its new size.
        const camera = createCamera(
          previous
            ? { view: previous.camera.getWorldDirection(new Vector3()).toArray(), top: previous.camera.up.toArray() }
            : {},
          built.bounds,
          Math.max(width, 1) / Math.max(height, 1),
        )
        addHeadlight(built.scene, camera)
        const warnings = [...built.warnings, ...checkShaders(gl, built.scene, camera)]
        // The old model stays on screen until the new one is ready, so an update never blanks the view.
        root.add(built.scene)
        if (previous) {
          root.remove(previous.scene)
          disposeScene(previous.scene)
        }
        const next = { scene: built.scene, camera, bounds: built.bounds.clone() }
        shownRef.current = next
        set({ camera })
        setShown(next)
        drawnVersion.current = modelVersion
        invalidate()
        onStatusRef.current?.({ state: 'ready', modelVersion, warnings, parts })
      } catch (error) {
        if (controller.signal.aborted) return
        if (wrapper.current) wrapper.current.dataset.state = 'error'
        onStatusRef.current?.({
          state: 'error',
          modelVersion,
          message: error instanceof Error ? error.message : String(error),
          notBuilt: false,
          showsEarlier: shownRef.current !== null,
        })
      }
    })()
    function notBuilt(message: string) {
      if (wrapper.current) wrapper.current.dataset.state = 'not-built'
      onStatusRef.current?.({
        state: 'error',
        modelVersion,
        message,
        notBuilt: true,
        showsEarlier: shownRef.current !== null,
      })
    }
    return () => controller.abort()
  }, [modelUrl, modelVersion, settings, files, gl, root, set, invalidate, wrapper])

  useEffect(
    () => () => {
      if (shownRef.current) disposeScene(shownRef.current.scene)
    },
    [],
  )

  if (!shown) return null
  return <Controls shown={shown} homeRequests={homeRequests} />
}

/**
 * Orbiting draws at a lower resolution (AdaptiveDpr) while the customer drags. Only then: a new
 * model moves the camera too, and lowering the resolution for that would resize the canvas
 * twice and draw it three times. The view is fitted to the canvas on Reset view (from the
 * default direction) and, until the customer turns or zooms it, whenever the canvas changes
 * size (full screen, a phone turned), so the whole product stays in view.
 */
function Controls({ shown, homeRequests }: { shown: Shown; homeRequests: number }) {
  const regress = useThree((state) => state.performance.regress)
  const invalidate = useThree((state) => state.invalidate)
  const size = useThree((state) => state.size)
  const orbiting = useRef(false)
  const moved = useRef(false)
  const handledHomeRequests = useRef(homeRequests)
  const controls = useRef<OrbitControlsImpl>(null)
  // One finger on the product scrolls the page, as everywhere else on it; two rotate and pinch zoom.
  // The controls forbid every touch gesture when they attach: vertical panning is given back.
  useEffect(() => {
    if (controls.current) controls.current.domElement!.style.touchAction = 'pan-y'
  }, [])
  useEffect(() => {
    const isReset = homeRequests !== handledHomeRequests.current
    handledHomeRequests.current = homeRequests
    if (isReset) moved.current = false
    else if (moved.current) return
    const { camera, bounds } = shown
    const direction = { view: camera.getWorldDirection(new Vector3()).toArray(), top: camera.up.toArray() }
    const fitted = createCamera(isReset ? {} : direction, bounds, size.width / Math.max(size.height, 1))
    camera.position.copy(fitted.position)
    camera.up.copy(fitted.up)
    camera.quaternion.copy(fitted.quaternion)
    camera.near = fitted.near
    camera.far = fitted.far
    camera.aspect = fitted.aspect
    camera.updateProjectionMatrix()
    controls.current?.target.copy(bounds.center)
    controls.current?.update()
    invalidate()
  }, [homeRequests, shown, size, invalidate])
  return (
    <OrbitControls
      ref={controls}
      touches={ONE_FINGER_SCROLLS}
      makeDefault
      camera={shown.camera}
      target={shown.bounds.center}
      enableDamping={false}
      onStart={() => (orbiting.current = moved.current = true)}
      onEnd={() => (orbiting.current = false)}
      onChange={() => orbiting.current && regress()}
    />
  )
}
