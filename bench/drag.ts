// A customer dragging a slider, as the page does it (components/configurator/use-config-session.ts):
// a new value every frame with ease-out, candidates sent every PREFETCH_INTERVAL_MS, and on release
// the PUT then the model. With prefetch against without, taking turns in the same run; then 16
// sessions dragging at once. Builds are counted as the cache's new rows, wherever they ran.
import { PREFETCH_INTERVAL_MS, type SliderRange, sliderCandidates } from '@/lib/client/prefetch'
import { db } from '@/lib/db'
import { describe, ms } from './stats'
import type { OperationId } from '@/lib/endpoints/operations'
import { call, type CallInput } from '../test/support/api-client'

const RUNS = 8
const FRAME_MS = 16
const DRAG_MS = 600
/** Between drags, so that each starts on settled workers. */
const SETTLE_MS = 300
const CROWD = 16

interface Slider {
  slug: string
  /** The parameter dragged, from `from` to `to`. */
  parameter: string
  range: SliderRange
  from: number
  to: number
  /** Another parameter, set to a new value before each drag so that every value dragged over is a new build. */
  fresh: (run: number) => Record<string, number>
}

const SLIDERS: Slider[] = [
  {
    slug: 'box-with-lid',
    parameter: 'width',
    range: { min: 30, max: 200, step: 1 },
    from: 60,
    to: 84,
    fresh: (run) => ({ depth: 30 + run }),
  },
  {
    slug: 'name-tag',
    parameter: 'text_size',
    range: { min: 5, max: 20, step: 0.5 },
    from: 8,
    to: 14,
    fresh: (run) => ({ thickness: 1 + (run % 9) / 2, relief: 0.4 + Math.floor(run / 9) * 0.2 }),
  },
  {
    slug: 'spur-gear',
    parameter: 'teeth',
    range: { min: 8, max: 80, step: 1 },
    from: 16,
    to: 34,
    fresh: (run) => ({ thickness: 2 + run / 2 }),
  },
]

const storedBuilds = () => db.cacheEntry.count()

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

/** Operation `id`, which must succeed; its body read. */
async function request<K extends OperationId>(id: K, input: CallInput<K>): Promise<Response> {
  const response = await call(id, input)
  if (!response.ok) throw new Error(`${id}: ${response.status} ${await response.text()}`)
  await response.arrayBuffer()
  return response
}

interface Release {
  /** Release to model answered: PUT then GET model. */
  ms: number
  /** The PUT found the model in the cache. */
  hit: boolean
  builds: number
}

/** One drag of `slider` in session `id`; on release the PUT and the model, timed. */
async function drag(token: string, id: string, slider: Slider, prefetching: boolean): Promise<Release> {
  const { parameter, range, from, to } = slider
  const buildsBefore = await storedBuilds()
  const frames = Math.round(DRAG_MS / FRAME_MS)
  let previous: number | undefined
  let nextValues: number[] = []
  let timer: NodeJS.Timeout | undefined
  const send = () => {
    timer = undefined
    const candidates = nextValues.map((value) => ({ [parameter]: { value } }))
    void request('prefetchModels', { token, params: { sessionId: id }, body: { candidates } }).catch(() => {})
  }
  for (let frame = 1; frame <= frames; frame++) {
    const progress = 1 - (1 - frame / frames) ** 3
    const [value] = sliderCandidates(range, from + (to - from) * progress, undefined)
    if (value !== previous && value !== undefined) {
      if (prefetching) {
        nextValues = sliderCandidates(range, value, previous)
        timer ??= setTimeout(send, PREFETCH_INTERVAL_MS)
      }
      previous = value
    }
    await sleep(FRAME_MS)
  }
  clearTimeout(timer)
  const released = performance.now()
  await request('setParameters', { token, params: { sessionId: id }, body: { [parameter]: { value: previous! } } })
  const model = await request('getModel', { token, params: { sessionId: id } })
  const elapsed = performance.now() - released
  // Candidates still being built land within the pause before the next drag.
  await sleep(SETTLE_MS)
  return {
    ms: elapsed,
    hit: model.headers.get('x-build-cache') !== 'built',
    builds: (await storedBuilds()) - buildsBefore,
  }
}

async function openSession(token: string, configuratorId: string): Promise<string> {
  const { id } = (await (await call('createSession', { token, body: { configuratorId } })).json()) as { id: string }
  return id
}

async function prepare(token: string, id: string, slider: Slider, run: number): Promise<void> {
  const body = Object.fromEntries(
    Object.entries({ ...slider.fresh(run), [slider.parameter]: slider.from }).map(([key, value]) => [key, { value }]),
  )
  await request('setParameters', { token, params: { sessionId: id }, body })
  await sleep(SETTLE_MS)
}

function summary(releases: Release[]) {
  const { p50, p95 } = describe(releases.map((release) => release.ms))
  const hits = releases.filter((release) => release.hit).length / releases.length
  const builds = releases.reduce((sum, release) => sum + release.builds, 0) / releases.length
  return { p50, p95, hits, builds, worst: Math.max(...releases.map((release) => release.ms)) }
}

/** Drags of each demo with prefetch and without, taking turns; `where` says where the builds run. */
export async function benchDrag(ids: Map<string, string>, token: string, where: string): Promise<void> {
  console.log(
    `\n## Dragging a slider (${where}): release to model (PUT then GET model), with prefetch (POST .../prefetch every ${PREFETCH_INTERVAL_MS} ms) and without`,
  )
  console.log(
    '| model | without: p50 | with: p50 | with / without | hit rate | engine builds per drag, without / with |',
  )
  console.log('|---|---|---|---|---|---|')
  for (const slider of SLIDERS) {
    const id = await openSession(token, ids.get(slider.slug)!)
    const runs = { without: [] as Release[], with: [] as Release[] }
    for (let run = 0; run < RUNS * 2; run++) {
      const prefetching = run % 2 === 1
      await prepare(token, id, slider, run)
      ;(prefetching ? runs.with : runs.without).push(await drag(token, id, slider, prefetching))
    }
    const [without, withPrefetch] = [summary(runs.without), summary(runs.with)]
    console.log(
      `| ${slider.slug} | ${ms(without.p50)} | ${ms(withPrefetch.p50)} ` +
        `| ${(withPrefetch.p50 / without.p50).toFixed(2)}x ` +
        `| ${(withPrefetch.hits * 100).toFixed(0)} % | ` +
        `${without.builds.toFixed(1)} / ` +
        `${withPrefetch.builds.toFixed(1)} |`,
    )
  }
  console.log(
    `\n${RUNS} drags each way per demo over ${DRAG_MS} ms with ease-out, every dragged value a new build. A hit: the PUT found`,
  )
  console.log('the model cached. Extra builds per real build = builds per drag with prefetch - builds without.')
}

/** CROWD sessions dragging the box at once, each starting a little after the last, all prefetching. */
export async function benchCrowd(ids: Map<string, string>, token: string): Promise<void> {
  const slider = SLIDERS[0]!
  const sessions = await Promise.all(Array.from({ length: CROWD }, () => openSession(token, ids.get(slider.slug)!)))
  const releases: Release[] = []
  let builds = 0
  for (let round = 0; round < 2; round++) {
    await Promise.all(sessions.map((id, index) => prepare(token, id, slider, RUNS * 2 + round * CROWD + index)))
    const buildsBefore = await storedBuilds()
    const dragging = sessions.map(async (id, index) => {
      await sleep(index * 37)
      return drag(token, id, slider, true)
    })
    releases.push(...(await Promise.all(dragging)))
    builds += (await storedBuilds()) - buildsBefore
  }
  // Per drag, counted over all of them: the drags overlap.
  const crowd = summary(releases)
  console.log(
    `\n${CROWD} sessions dragging "${slider.parameter}" of the box at once (2 rounds, staggered by 37 ms), with prefetch:`,
  )
  console.log(
    `release to model p50 ${ms(crowd.p50)}, p95 ` +
      `${ms(crowd.p95)}, slowest ${ms(crowd.worst)}; hit rate ` +
      `${(crowd.hits * 100).toFixed(0)} %; ` +
      `${(builds / releases.length).toFixed(1)} ` +
      `engine builds per drag.`,
  )
}
