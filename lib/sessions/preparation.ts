import { findOwnedConfigurator, type OwnedConfiguratorOptions } from '@/lib/configurators/configurators'
import { z } from 'zod'
import { ZPreparationFailure, ZPreparationRefusals, ZTestDriveSample } from '@/lib/configurators/schemas'
import { db } from '@/lib/db'
import { parseColumn, toJsonInput } from '@/lib/json-columns'
import { presetsOf } from '@/lib/sessions/presets'
import {
  type BuildSource,
  buildValues,
  preparePrint,
  readConfiguratorSource,
  refusedValuesOf,
} from '@/lib/sessions/model-builds'
import { sampleValues } from '@/lib/configurators/test-drive'
import type { Preparation, Prisma } from '@/lib/generated/prisma/client'
import type { Values } from '@/lib/cad/engine'
import { logger } from '@/lib/log'
import { draftOf, readDraft } from '@/lib/releases/release-content'

// After a change of a configurator's model (a file, an archive, a preset, its main file or
// settings, a library it uses), its parameters are read and its defaults and every preset built
// in the background, so that the first customer to open it gets cached models. Reads and builds
// are cached by content, so preparing an unchanged model again costs nothing.

/** Changes arriving together (a folder uploaded file by file) prepare once, after the last. */
const SETTLE_MS = 500
const scheduled = new Map<string, { timer: NodeJS.Timeout; changes: bigint[] }>()

/** Prepares the configurator after its recorded model changes `changes` settle; they are done once it starts. */
export function schedulePreparation(configuratorId: string, changes: bigint[]): void {
  const earlier = scheduled.get(configuratorId)
  clearTimeout(earlier?.timer)
  const all = [...(earlier?.changes ?? []), ...changes]
  const timer = setTimeout(() => {
    scheduled.delete(configuratorId)
    startPreparation(configuratorId, all)
  }, SETTLE_MS)
  timer.unref()
  scheduled.set(configuratorId, { timer, changes: all })
}

/** Prepares the configurator now, in the background; a failure is logged. */
export function startPreparation(configuratorId: string, changes: bigint[] = []): void {
  prepareConfigurator(configuratorId, changes).catch((error: unknown) =>
    logger.warn({ err: error, configuratorId }, 'preparing a configurator failed'),
  )
}

const ZFailures = z.array(ZPreparationFailure)
const ZTestDrive = z.array(ZTestDriveSample)
const ZRefusals = z.array(ZPreparationRefusals)

/** Each model of the preparation that did not build. */
export function readFailures(preparation: Preparation): z.infer<typeof ZFailures> {
  return parseColumn(ZFailures, preparation.failures, { ...rowOf(preparation), column: 'failures' })
}

/** The test drive's samples built so far, each with how its build went. */
export function readTestDrive(preparation: Preparation): z.infer<typeof ZTestDrive> {
  return parseColumn(ZTestDrive, preparation.testDrive, { ...rowOf(preparation), column: 'testDrive' })
}

/** Where the model refuses values at the defaults and each preset, as searched so far. */
export function readRefusals(preparation: Preparation): z.infer<typeof ZRefusals> {
  return parseColumn(ZRefusals, preparation.refusals, { ...rowOf(preparation), column: 'refusals' })
}

function rowOf(preparation: Preparation) {
  return { table: 'Preparation', id: preparation.configuratorId }
}

/** Updates the preparation that began at `startedAt`: a newer one that began meanwhile owns the row. */
function updatePreparation(configuratorId: string, startedAt: Date, data: Prisma.PreparationUpdateManyMutationInput) {
  return db.preparation.updateMany({ where: { configuratorId, startedAt }, data })
}

export async function prepareConfigurator(configuratorId: string, changes: bigint[] = []): Promise<void> {
  const draft = await readDraft(configuratorId)
  if (!draft) {
    // Removed meanwhile: nothing is left to prepare.
    await db.modelChange.deleteMany({ where: { id: { in: changes } } })
    return
  }
  const { configurator } = draft
  const startedAt = new Date()
  const reset = {
    state: 'preparing',
    startedAt,
    draft: draft.version,
    finishedAt: null,
    builds: 0,
    failedBuilds: 0,
    message: '',
    failures: [],
    testDrive: [],
    testDriveDone: false,
    refusals: [],
    refusalsDone: false,
  }
  await db.$transaction([
    db.preparation.upsert({ where: { configuratorId }, create: { configuratorId, ...reset }, update: reset }),
    db.modelChange.deleteMany({ where: { id: { in: changes } } }),
  ])
  let source: BuildSource
  let valueSets: ValueSet[]
  try {
    source = await readConfiguratorSource(configurator)
    // A broken preset file is the presets' problem (its requests say so); the defaults still build.
    const presets = await presetsOf(draftOf(configurator), source.definitions).catch(() => [])
    valueSets = [
      { build: 'the defaults', values: {} },
      ...presets.map((preset) => ({ build: `preset ${preset.name}`, values: preset.values })),
    ]
    const failures: z.infer<typeof ZFailures> = []
    for (const { build, values } of valueSets) {
      const { mesh, log } = await buildValues(source, values)
      if (!mesh) failures.push({ build, message: firstProblem(log.error), log: log.error.slice(0, FAILURE_LOG_CHARS) })
    }
    // The first customer's weight and price, final at once. A model whose parts cannot be made ready to print says so when asked.
    await preparePrint(source, {}).catch(() => {})
    await updatePreparation(configuratorId, startedAt, {
      state: 'ready',
      builds: valueSets.length,
      failedBuilds: failures.length,
      failures: toJsonInput(ZFailures, failures),
      finishedAt: new Date(),
    })
  } catch (error) {
    await updatePreparation(configuratorId, startedAt, {
      state: 'failed',
      message: (error as Error).message,
      finishedAt: new Date(),
      testDriveDone: true,
      refusalsDone: true,
    })
    return
  }
  await runTestDrive(source, startedAt)
  await searchRefusals(source, valueSets, startedAt)
}

interface ValueSet {
  /** Which model: "the defaults", or "preset <name>". */
  build: string
  values: Values
}

/**
 * Where the model refuses values at the defaults and each preset (docs/refused-values.md), one
 * after another behind every customer's build, stored as each is found; after the test drive,
 * which publishing waits for. It ends done whatever happens; a failure is logged.
 */
async function searchRefusals(source: BuildSource, valueSets: ValueSet[], startedAt: Date): Promise<void> {
  const configuratorId = source.session.configuratorId
  const maps: z.infer<typeof ZRefusals> = []
  try {
    for (const { build, values } of valueSets) {
      maps.push({ build, ...(await refusedValuesOf(source, values, { wait: true })) })
      await updatePreparation(configuratorId, startedAt, { refusals: toJsonInput(ZRefusals, maps) })
    }
  } catch (error) {
    logger.warn({ err: error, configuratorId }, 'searching where a model refuses values failed')
  } finally {
    await updatePreparation(configuratorId, startedAt, { refusalsDone: true })
  }
}

const TEST_DRIVE_SAMPLES = 4
/** Enough for every error a designer reads: a flood of warnings is cut. */
const FAILURE_LOG_CHARS = 16 * 1024

/** The first error of a log (else its first warning, else its first line), as OpenSCAD printed it. */
function firstProblem(error: string): string {
  const lines = error.split('\n')
  return (
    lines.find((line) => line.startsWith('ERROR')) ??
    lines.find((line) => /^(ERROR|WARNING)/.test(line)) ??
    lines[0] ??
    ''
  )
}

/**
 * Builds a few random combinations of values, behind everyone else's builds, and records how
 * each went, with the values to reproduce it. It ends done whatever happens, so nobody waits for it.
 */
async function runTestDrive(source: BuildSource, startedAt: Date): Promise<void> {
  const configuratorId = source.session.configuratorId
  const background = { ...source, session: { ...source.session, background: true } }
  const results: z.infer<typeof ZTestDrive> = []
  try {
    for (const values of sampleValues(source.definitions, TEST_DRIVE_SAMPLES, source.inputs.sourceHash)) {
      const build = await buildValues(background, values)
      const outcome = build.mesh ? 'built' : /time limit/.test(build.log.error) ? 'time limit' : 'failed'
      results.push({ values, outcome, message: build.mesh ? '' : firstProblem(build.log.error) })
      await updatePreparation(configuratorId, startedAt, { testDrive: toJsonInput(ZTestDrive, results) })
    }
  } finally {
    await updatePreparation(configuratorId, startedAt, { testDriveDone: true })
  }
}

/** The last preparation of a configurator of the user's; state `none` before the model's first change. */
export async function getPreparation(options: OwnedConfiguratorOptions) {
  await findOwnedConfigurator(options)
  const preparation = await db.preparation.findUnique({ where: { configuratorId: options.configuratorId } })
  if (!preparation)
    return {
      state: 'none' as const,
      draft: '',
      startedAt: null,
      durationMs: null,
      builds: 0,
      failedBuilds: 0,
      message: '',
      failures: [],
      testDrive: { done: false, samples: [] },
      refusals: { done: false, maps: [] },
    }
  const { state, draft, startedAt, finishedAt, builds, failedBuilds, message, testDriveDone, refusalsDone } =
    preparation
  return {
    draft,
    testDrive: { done: testDriveDone, samples: readTestDrive(preparation) },
    state: state as 'preparing' | 'ready' | 'failed',
    startedAt: startedAt.toISOString(),
    durationMs: finishedAt ? finishedAt.getTime() - startedAt.getTime() : null,
    builds,
    failedBuilds,
    message,
    failures: readFailures(preparation),
    refusals: { done: refusalsDone, maps: readRefusals(preparation) },
  }
}
