// Releases (issue 30): a customer's session builds a release, the designer's draft link the draft.
// Timed here: the request path of a release's session against the draft's (the same builds,
// cached), and a customer's builds while the designer's edits rebuild the draft beside them.
import fs from 'node:fs'
import { prepareConfigurator } from '@/lib/sessions/preparation'
import { describe, ms } from './stats'
import { call } from '../test/support/api-client'

const RUNS = 10
/** A customer's pause between two values, as between the steps of a drag. */
const THINK_MS = 150
const SOURCE = fs.readFileSync('demo/name-tag/main.scad', 'utf8')

async function openSession(token: string, configuratorId: string, draft: boolean): Promise<string> {
  const response = await call('createSession', { token, body: { configuratorId, ...(draft && { draft }) } })
  return ((await response.json()) as { id: string }).id
}

/** Sets text_size and reads the model (STL): the customer's step. */
async function setAndGet(token: string, sessionId: string, value: number): Promise<number> {
  const started = performance.now()
  for (const response of [
    await call('setParameters', { token, params: { sessionId }, body: { text_size: { value } } }),
    await call('getModel', { token, params: { sessionId } }),
  ]) {
    if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`)
    await response.arrayBuffer()
  }
  return performance.now() - started
}

/** The designer typing: each edit saved (a new source, so never cached) and the draft's model asked for, until `isDone`; how long each edit's model took. */
async function designerTypes(
  token: string,
  configuratorId: string,
  sessionId: string,
  isDone: () => boolean,
): Promise<number[]> {
  const samples: number[] = []
  while (!isDone()) {
    const started = performance.now()
    const body = `${SOURCE}\n// edit ${samples.length} ${Date.now()}\n`
    await call('uploadConfiguratorFile', {
      token,
      params: { configuratorId, path: ['configurator', 'main.scad'] },
      body,
    })
    const model = await call('getModel', { token, params: { sessionId } })
    await model.arrayBuffer()
    samples.push(performance.now() - started)
  }
  return samples
}

export async function benchReleases(configuratorId: string, token: string): Promise<void> {
  console.log(
    "\n## Releases: a release's session against the draft's, and a customer while the designer types (name tag)",
  )
  await prepareConfigurator(configuratorId)
  const published = await call('publishRelease', { token, params: { configuratorId }, body: { override: true } })
  if (!published.ok) throw new Error(`publishing: ${published.status} ${await published.text()}`)
  const [draft, release] = [
    await openSession(token, configuratorId, true),
    await openSession(token, configuratorId, false),
  ]

  // The draft is the release's content just after publishing: the same builds, cached once for both.
  const values = Array.from({ length: RUNS }, (_, index) => 6 + index * 0.5)
  for (const value of values) await setAndGet(token, release, value)
  const cached = { draft: [] as number[], release: [] as number[] }
  for (const value of values) {
    cached.draft.push(await setAndGet(token, draft, value))
    cached.release.push(await setAndGet(token, release, value))
  }
  const [d, r] = [describe(cached.draft), describe(cached.release)]
  console.log('| cached PUT + GET model | p50 | p95 |')
  console.log('|---|---|---|')
  console.log(`| the draft's session | ${ms(d.p50)} | ${ms(d.p95)} |`)
  console.log(`| the release's session | ${ms(r.p50)} | ${ms(r.p95)} |`)
  console.log(`| release / draft | ${(r.p50 / d.p50).toFixed(2)}x | ${(r.p95 / d.p95).toFixed(2)}x |`)

  // Uncached: values no session built before, 0.05 mm apart.
  const steps = (from: number) => Array.from({ length: 2 * RUNS }, (_, index) => from + index * 0.05)
  const customer = async (from: number) => {
    const samples = []
    for (const value of steps(from)) {
      samples.push(await setAndGet(token, release, value))
      await new Promise((resolve) => setTimeout(resolve, THINK_MS))
    }
    return samples
  }
  const alone = await customer(11.01)
  let isDone = false
  const designer = designerTypes(token, configuratorId, draft, () => isDone)
  const beside = await customer(13.01)
  isDone = true
  const edits = await designer
  let count = 0
  const editsAlone = await designerTypes(token, configuratorId, draft, () => count++ >= RUNS)
  const [a, b] = [describe(alone), describe(beside)]
  console.log(`\n| a customer's uncached PUT + GET model, ${2 * RUNS} steps ${THINK_MS} ms apart | p50 | p95 |`)
  console.log('|---|---|---|')
  console.log(`| alone | ${ms(a.p50)} | ${ms(a.p95)} |`)
  console.log(`| while the designer saves edits, each rebuilding the draft | ${ms(b.p50)} | ${ms(b.p95)} |`)
  console.log(`| beside / alone | ${(b.p50 / a.p50).toFixed(2)}x | ${(b.p95 / a.p95).toFixed(2)}x |`)
  const [e, f] = [describe(editsAlone), describe(edits)]
  console.log(`\n| the designer's save + GET draft model | edits | p50 | p95 |`)
  console.log('|---|---|---|---|')
  console.log(`| alone | ${editsAlone.length} | ${ms(e.p50)} | ${ms(e.p95)} |`)
  console.log(`| beside the customer | ${edits.length} | ${ms(f.p50)} | ${ms(f.p95)} |`)
  console.log("\nAim: a release costs its session nothing the draft does not (1.0x); the designer's builds run on the")
  console.log(
    "background workers, behind the customer's, so a customer beside a typing designer waits about as long as alone.",
  )
}
