// First open of a configurator by its first customer: a model the server prepared in the
// background after its upload (lib/sessions/preparation.ts) against one it did not.
import fs from 'node:fs'
import { describe, ms } from './stats'
import { call } from '../test/support/api-client'

const RUNS = 5

/** A model nobody opened before: the name tag demo (text, so fonts too), made distinct by a tag. */
async function freshConfigurator(token: string, tag: string): Promise<string> {
  const created = await call('createConfigurator', {
    token,
    body: { name: `First open ${tag}`, mainFile: 'main.scad', extraSettings: { quality: { preview: { $fn: 16 } } } },
  })
  const { UUID } = (await created.json()) as { UUID: string }
  const source = `${fs.readFileSync('demo/name-tag/main.scad', 'utf8')}\necho("${tag}");\n`
  await call('uploadConfiguratorFile', {
    token,
    params: { configuratorId: UUID, path: ['configurator', 'main.scad'] },
    body: source,
  })
  return UUID
}

/** What a customer's page asks first: a session, its parameters and its model. */
async function firstOpen(token: string, configuratorId: string): Promise<number> {
  const started = performance.now()
  const { id } = (await (await call('createSession', { token, body: { configuratorId } })).json()) as { id: string }
  for (const operation of ['getParameters', 'getModel'] as const) {
    const response = await call(operation, { token, params: { sessionId: id } })
    if (!response.ok) throw new Error(`${operation}: ${response.status} ${await response.text()}`)
    await response.arrayBuffer()
  }
  return performance.now() - started
}

export async function benchFirstOpen(token: string): Promise<void> {
  const { env } = await import('@/lib/env')
  const { prepareConfigurator } = await import('@/lib/sessions/preparation')
  env.PREPARE_MODELS = false // prepared explicitly below, so no background work overlaps a measurement
  const unprepared: number[] = []
  const prepared: number[] = []
  for (let run = 0; run < RUNS; run++) {
    unprepared.push(await firstOpen(token, await freshConfigurator(token, `unprepared-${process.pid}-${run}`)))
    const configuratorId = await freshConfigurator(token, `prepared-${process.pid}-${run}`)
    await prepareConfigurator(configuratorId)
    prepared.push(await firstOpen(token, configuratorId))
  }
  const [u, p] = [describe(unprepared), describe(prepared)]
  console.log('\n## First open: session, parameters and model of a configurator nobody opened yet (name tag)')
  console.log('| | p50 | p95 |')
  console.log('|---|---|---|')
  console.log(`| not prepared | ${ms(u.p50)} | ${ms(u.p95)} |`)
  console.log(`| prepared after upload | ${ms(p.p50)} | ${ms(p.p95)} |`)
  console.log(`\nPrepared / not prepared: ${(p.p50 / u.p50).toFixed(2)}x (p50).`)
}
