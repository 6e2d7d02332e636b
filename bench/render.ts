// Server-side images: GET .../image over HTTP against a real server (its warm page pool),
// next to a bare three.js render of the same GLB in the same Chromium build and flags,
// measured in the same run.
import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { operationMethod, operationPath } from '@/lib/endpoints/client'
import { launchBrowser } from '@/lib/render/server/launch-browser'
import { signIn, startServer, stopServer, tempDir } from '@/test/support/start-server'
import { describe, hasProductionBuild, ms, timeRuns } from './stats'

const RUNS = 20
const WARM_UP = 3
const SIZES = [
  [800, 600],
  [1920, 1080],
] as const
const SLUGS = ['box-with-lid', 'name-tag', 'spur-gear']

// The baseline page: three.js straight from node_modules, no app code: parse the GLB, one
// MeshStandardMaterial a part, the same lights, frame the model, render, encode.
const BARE_ORIGIN = 'http://bare.invalid'
const BARE_PAGE = `<!doctype html><script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/"}}</script>
<script type="module">
import * as THREE from 'three'
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js'
const renderer = new THREE.WebGLRenderer({ antialias: true, alpha: true, preserveDrawingBuffer: true })
let glb
window.setGlb = (base64) => { glb = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).buffer }
window.renderBare = async (width, height, type) => {
  const gltf = await new GLTFLoader().parseAsync(glb.slice(0), '')
  const scene = new THREE.Scene()
  scene.add(new THREE.AmbientLight(0xffffff, 0.6), new THREE.HemisphereLight(0xffffff, 0x9a9a9a, 1.2), gltf.scene)
  const sphere = new THREE.Box3().setFromObject(gltf.scene).getBoundingSphere(new THREE.Sphere())
  const camera = new THREE.PerspectiveCamera(40, width / height, sphere.radius * 0.01, sphere.radius * 10)
  camera.up.set(0, 0, 1)
  camera.position.copy(sphere.center).addScaledVector(new THREE.Vector3(1, -1.4, 0.9).normalize(), sphere.radius * 3)
  camera.lookAt(sphere.center)
  camera.add(new THREE.DirectionalLight(0xffffff, 1.6))
  scene.add(camera)
  renderer.setSize(width, height, false)
  renderer.render(scene, camera)
  const url = renderer.domElement.toDataURL('image/' + type, 0.92)
  gltf.scene.traverse((o) => { if (o.isMesh) { o.geometry.dispose(); o.material.dispose() } })
  return url
}
window.ready = true
</script>`

async function openBarePage(page: Page): Promise<void> {
  await page.route(`${BARE_ORIGIN}/**`, async (route) => {
    const { pathname } = new URL(route.request().url())
    if (pathname === '/') return route.fulfill({ contentType: 'text/html', body: BARE_PAGE })
    const file = path.join('node_modules', pathname)
    if (!pathname.startsWith('/three/') || !fs.existsSync(file)) return route.fulfill({ status: 404 })
    return route.fulfill({ contentType: 'text/javascript', body: fs.readFileSync(file) })
  })
  await page.goto(`${BARE_ORIGIN}/`)
  await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true)
}

export async function benchRender(): Promise<void> {
  console.log('\n## Images: GET .../image (PNG, warm, default 3/4 camera) against bare three.js in the same Chromium')
  if (!hasProductionBuild('the image endpoint')) return
  const server = await startServer({ DATA_DIR: tempDir(), SEED_DEMO: 'true' })
  const browser = await launchBrowser()
  try {
    const token = await signIn(server.url)
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    const configurators = (await (
      await fetch(`${server.url}/api${operationPath('listConfigurators')}`, { headers: auth })
    ).json()) as { UUID: string; name: string }[]
    const demos = JSON.parse(fs.readFileSync('demo/demos.json', 'utf8')) as { slug: string; name: string }[]
    const bare = await browser.newPage()
    await openBarePage(bare)

    console.log(
      '| model | size | service p50 | service p95 | bare three.js p50 | bare p95 | service/bare p50 | service stages p50 (Server-Timing) |',
    )
    console.log('|---|---|---|---|---|---|---|---|')
    for (const slug of SLUGS) {
      const { UUID } = configurators.find((c) => c.name === demos.find((demo) => demo.slug === slug)!.name)!
      const configurator = operationPath('updateConfigurator', { params: { configuratorId: UUID } })
      await fetch(`${server.url}/api${configurator}`, {
        method: operationMethod('updateConfigurator'),
        headers: auth,
        body: JSON.stringify({ rendererType: 'headless' }),
      })
      const opened = await fetch(`${server.url}/api${operationPath('createSession')}`, {
        method: operationMethod('createSession'),
        headers: auth,
        body: JSON.stringify({ configuratorId: UUID }),
      })
      const session = (await opened.json()) as {
        id: string
        modelKey: string
        renderingKey: string
        renderSessions: { rendererType: string; sessionId: string }[]
      }
      const renderer = session.renderSessions.find((entry) => entry.rendererType === 'headless')!.sessionId
      const glb = await (
        await fetch(
          `${server.url}/api${operationPath('getModel', { params: { sessionId: session.id }, query: { type: 'glb', key: session.modelKey } })}`,
        )
      ).arrayBuffer()
      await bare.evaluate(
        (base64) => (window as unknown as { setGlb: (b: string) => void }).setGlb(base64),
        Buffer.from(glb).toString('base64'),
      )

      for (const [w, h] of SIZES) {
        const url = `${server.url}/api${operationPath('getRendererImage', { params: { sessionId: session.id, rendererId: renderer }, query: { w: String(w), h: String(h), key: session.renderingKey } })}`
        const stages: Record<string, number[]> = {}
        const service = describe(
          await timeRuns(
            async () => {
              const response = await fetch(url)
              if (!response.ok) throw new Error(`${slug}: image answered ${response.status} ${await response.text()}`)
              await response.arrayBuffer()
              for (const [, stage, value] of (response.headers.get('server-timing') ?? '').matchAll(
                /(\w+);dur=([\d.]+)/g,
              )) {
                ;(stages[stage!] ??= []).push(Number(value))
              }
            },
            RUNS,
            WARM_UP,
          ),
        )
        const baseline = describe(
          await timeRuns(
            async () => {
              await bare.evaluate(
                ([width, height]) =>
                  (
                    window as unknown as { renderBare: (w: number, h: number, t: string) => Promise<string> }
                  ).renderBare(width, height, 'png'),
                [w, h] as const,
              )
            },
            RUNS,
            WARM_UP,
          ),
        )
        const breakdown = Object.entries(stages)
          .map(([stage, values]) => `${stage} ${describe(values).p50.toFixed(0)}`)
          .join(', ')
        console.log(
          `| ${slug} | ${w}x${h} | ${ms(service.p50)} ` +
            `| ${ms(service.p95)} | ${ms(baseline.p50)} ` +
            `| ${ms(baseline.p95)} | ` +
            `${(service.p50 / baseline.p50).toFixed(2)}x | ${breakdown} |`,
        )
      }
    }
    console.log(
      `\n${RUNS} requests each after ${WARM_UP} warm-up ones, one at a time. The service's time includes HTTP, the key check,`,
    )
    console.log(
      'the model from the build cache, scene settings, the page loading the GLB and shaders, and the PNG back.',
    )
  } finally {
    await browser.close()
    await stopServer(server)
  }
}
