import { strToU8, zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findConfiguratorRow } from '@/lib/configurators/model-memory'
import { db } from '@/lib/db'
import { OPERATIONS } from '@/lib/endpoints/openapi'
import { env } from '@/lib/env'
import { draftOf } from '@/lib/releases/release-content'
import { applyModelChanges } from '@/lib/sessions/model-change-effects'
import { describeModelInputs } from '@/lib/sessions/model-inputs'
import { api, readBody } from '@/test/support/api-client'
import { createConfigurator, signUp } from '@/test/support/fixtures'
import * as sessions from '@/lib/sessions/operations'

// Every operation that can change what a configurator builds sets off what its kind of change
// needs, and no more: the rows remembered for what changed are forgotten (on every instance),
// and a preparation starts where the model changed. The effects are observed as customers meet
// them: rows changed behind the server's back are seen only once their remembered copies are
// forgotten, and a preparation shows in the configurator's preparation.

const LIBRARY = 'EffectsLib'
const MODEL = `use <${LIBRARY}/part.scad>\nsize = 10; // [5:20]\npart(size);\n`
const libraryZip = (shape: string) => zipSync({ 'part.scad': strToU8(`module part(size) ${shape}(size);\n`) })

type Forgets = 'the configurator' | 'the session' | 'every model'

interface Fixture {
  owner: string
  admin: string
  configuratorId: string
  sessionId: string
  sessionFileId: string
}

interface Case {
  operation: string
  what: string
  forgets: Forgets
  prepares: boolean
  run: (fixture: Fixture) => Promise<Response>
}

const base = ({ configuratorId }: Fixture) => `/configurators/${configuratorId}`

/** In the order they run: each case's fixture is what the earlier ones left. */
const CASES: Case[] = [
  {
    operation: 'uploadConfiguratorFile',
    what: 'a model file',
    forgets: 'the configurator',
    prepares: true,
    run: (f) => api('PUT', `${base(f)}/files/configurator/main.scad`, { token: f.owner, body: `${MODEL}// 2\n` }),
  },
  {
    operation: 'uploadConfiguratorFile',
    what: 'a renderer file',
    forgets: 'the configurator',
    prepares: false,
    run: (f) => api('PUT', `${base(f)}/files/renderer/scene.json`, { token: f.owner, body: '{}' }),
  },
  {
    operation: 'uploadConfiguratorFile',
    what: 'a model file copied',
    forgets: 'the configurator',
    prepares: true,
    run: (f) =>
      api('PUT', `${base(f)}/files/configurator/copy.scad`, {
        token: f.owner,
        headers: { 'service-copy-source': `configurators/${f.configuratorId}/files/configurator/main.scad` },
      }),
  },
  {
    operation: 'deleteConfiguratorFile',
    what: 'a model file',
    forgets: 'the configurator',
    prepares: true,
    run: (f) => api('DELETE', `${base(f)}/files/configurator/copy.scad`, { token: f.owner }),
  },
  {
    operation: 'deleteConfiguratorFile',
    what: 'a renderer file',
    forgets: 'the configurator',
    prepares: false,
    run: (f) => api('DELETE', `${base(f)}/files/renderer/scene.json`, { token: f.owner }),
  },
  {
    operation: 'uploadConfiguratorArchive',
    what: 'model files',
    forgets: 'the configurator',
    prepares: true,
    run: (f) =>
      api('POST', `${base(f)}/archives`, {
        token: f.owner,
        body: zipSync({ 'main.scad': strToU8(`${MODEL}// 3\n`) }),
        headers: { 'content-type': 'application/zip' },
      }),
  },
  {
    operation: 'updateConfigurator',
    what: 'its settings',
    forgets: 'the configurator',
    prepares: true,
    run: (f) => api('PUT', base(f), { token: f.owner, body: { extraSettings: { limits: { buildSeconds: 30 } } } }),
  },
  {
    operation: 'savePreset',
    what: 'a preset',
    forgets: 'the configurator',
    prepares: true,
    run: (f) => api('PUT', `${base(f)}/presets/Large`, { token: f.owner, body: { size: { value: 20 } } }),
  },
  {
    operation: 'addSessionFile',
    what: "a customer's file",
    forgets: 'the session',
    prepares: false,
    run: (f) => api('POST', `/configsessions/${f.sessionId}/files?name=logo.svg`, { token: f.owner, body: '<svg/>' }),
  },
  {
    operation: 'deleteSessionFile',
    what: "a customer's file",
    forgets: 'the session',
    prepares: false,
    run: (f) => api('DELETE', `/configsessions/${f.sessionId}/files/${f.sessionFileId}`, { token: f.owner }),
  },
  {
    operation: 'installLibrary',
    what: 'a library the model uses',
    forgets: 'every model',
    prepares: true,
    run: (f) =>
      api('POST', `/libraries?name=${LIBRARY}`, {
        token: f.admin,
        body: libraryZip('sphere'),
        headers: { 'content-type': 'application/zip' },
      }),
  },
  {
    operation: 'publishRelease',
    what: 'the prepared draft',
    forgets: 'the configurator',
    prepares: false,
    run: (f) => api('POST', `${base(f)}/releases`, { token: f.owner, body: {} }),
  },
  {
    operation: 'rollBackRelease',
    what: 'to the release',
    forgets: 'the configurator',
    prepares: false,
    run: (f) => api('POST', `${base(f)}/releases/1/rollback`, { token: f.owner }),
  },
  {
    operation: 'removeLibrary',
    what: 'a library the model uses',
    forgets: 'every model',
    prepares: true,
    run: (f) => api('DELETE', `/libraries/${LIBRARY}`, { token: f.admin }),
  },
  {
    operation: 'deleteConfigurator',
    what: 'the configurator',
    forgets: 'the configurator',
    prepares: false,
    run: (f) => api('DELETE', base(f), { token: f.owner }),
  },
]

/** Operations that change no build: they change accounts, applications, values, snapshots or services. */
const NO_BUILD_CHANGE = [
  'issueAnonymousToken',
  'issueServerToken',
  'login',
  'logout',
  'signIn',
  'signOut',
  'createUser',
  'createConfigurator',
  'deleteApplication',
  'registerApplication',
  'deleteWebhook',
  'setWebhook',
  'applyPreset',
  'createSession',
  'prefetchModels',
  'setParameters',
  'createSnapshot',
  'deleteSnapshot',
  'updateScene',
  'callServiceGet',
  'callServicePost',
  'callServicePut',
]

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits until every recorded change has had its effects and no preparation runs. */
async function settled(): Promise<void> {
  for (const deadline = Date.now() + 60_000; ; await sleep(100)) {
    const busy = await db.preparation.count({
      where: { OR: [{ state: 'preparing' }, { testDriveDone: false }, { refusalsDone: false }] },
    })
    if (busy === 0 && (await db.modelChange.count()) === 0) return
    expect(Date.now(), 'model changes still waiting for their effects').toBeLessThan(deadline)
  }
}

/**
 * Remembers a configurator's row and a session's model inputs, then changes both behind the
 * server's back: what a change forgets shows the new values afterwards, what it keeps the old.
 */
async function rememberStaleRows(configuratorId: string, sessionId: string) {
  const remembered = (await findConfiguratorRow(configuratorId))!
  const inputsOf = async () => {
    const row = await findConfiguratorRow(configuratorId)
    return row && describeModelInputs(draftOf(row), sessionId)
  }
  await inputsOf()
  const marker = `${Date.now()}${Math.random()}`
  await db.configurator.update({ where: { id: configuratorId }, data: { description: marker } })
  const hidden = await db.sessionFile.create({
    data: {
      id: marker,
      sessionId,
      name: `${marker}.txt`,
      blobHash: '0'.repeat(64),
      size: 0,
      contentType: 'text/plain',
    },
  })
  return async () => {
    const configurator = (await findConfiguratorRow(configuratorId))?.description !== remembered.description
    const inputs = await inputsOf()
    const session = !inputs || inputs.sessionFileNames.has(hidden.id)
    await db.sessionFile.deleteMany({ where: { id: hidden.id } })
    return { configurator, session }
  }
}

/** A configurator of its own with a draft session, and a file in it. */
async function openDraft(owner: string, name: string) {
  const configuratorId = await createConfigurator(owner, { name })
  const saved = await api('PUT', `/configurators/${configuratorId}/files/configurator/main.scad`, {
    token: owner,
    body: MODEL,
  })
  expect(saved.status).toBe(202)
  const session = await readBody(
    await api('POST', '/configsessions', { token: owner, body: { configuratorId, draft: true } }),
    sessions.createSession,
  )
  const file = await api('POST', `/configsessions/${session.id}/files?name=old.txt`, { token: owner, body: 'old' })
  const { name: sessionFileId } = (await file.json()) as { name: string }
  return { configuratorId, sessionId: session.id, sessionFileId }
}

describe('model changes', () => {
  it('are every mutating operation either in the table of what it sets off or among those changing no build', () => {
    const mutating = OPERATIONS.filter((operation) => operation.method !== 'GET' || operation.body).map(
      (operation) => operation.id,
    )
    const known = new Set([...CASES.map((entry) => entry.operation), ...NO_BUILD_CHANGE])
    expect(mutating.filter((id) => !known.has(id))).toEqual([])
    expect([...known].filter((id) => !mutating.includes(id))).toEqual([])
  })

  describe('set off their effects', () => {
    const fixture = {} as Fixture

    /** Another configurator and session: a change of the fixture's forgets nothing of theirs, unless it changes every model. */
    const other = { configuratorId: '', sessionId: '' }

    beforeAll(async () => {
      env.PREPARE_MODELS = true
      const [owner, admin] = [await signUp(), await signUp('admin')]
      const installed = await api('POST', `/libraries?name=${LIBRARY}`, {
        token: admin.token,
        body: libraryZip('cube'),
        headers: { 'content-type': 'application/zip' },
      })
      expect(installed.status).toBe(200)
      Object.assign(fixture, { owner: owner.token, admin: admin.token, ...(await openDraft(owner.token, 'Effects')) })
      Object.assign(other, await openDraft(owner.token, 'Other'))
      await settled()
    }, 120_000)
    afterAll(() => {
      env.PREPARE_MODELS = false
    })

    it('left by a process that stopped before them, at the next start or after its claim ran out', async () => {
      const changedAt = new Date()
      const forgotten = await rememberStaleRows(other.configuratorId, other.sessionId)
      const { configuratorId } = other
      await db.modelChange.create({ data: { kind: 'model', subject: configuratorId } })
      await db.modelChange.create({
        data: { kind: 'session', subject: other.sessionId, claimedAt: new Date(Date.now() - 120_000) },
      })
      await db.modelChange.create({ data: { kind: 'session', subject: other.sessionId, claimedAt: new Date() } })
      await applyModelChanges()
      expect(await forgotten()).toEqual({ configurator: true, session: true })
      // A claim another instance holds is its own to finish (here, nobody's: it is removed).
      expect(await db.modelChange.count({ where: { kind: 'session' } })).toBe(1)
      await db.modelChange.deleteMany({ where: { kind: 'session' } })
      await settled()
      expect(await db.preparation.count({ where: { configuratorId, startedAt: { gte: changedAt } } })).toBe(1)
    })

    it.each(CASES)('$operation ($what) forgets $forgets, prepares: $prepares', { timeout: 120_000 }, async (entry) => {
      const forgotten = await rememberStaleRows(fixture.configuratorId, fixture.sessionId)
      const othersForgotten = await rememberStaleRows(other.configuratorId, other.sessionId)
      const changedAt = new Date()
      const response = await entry.run(fixture)
      expect(response.status, await response.clone().text()).toBeLessThan(300)

      // Forgotten on the writer's own instance before it answers; a draft session's rows are its configurator's too.
      expect(await forgotten()).toEqual({ configurator: entry.forgets !== 'the session', session: true })
      const everything = entry.forgets === 'every model'
      expect(await othersForgotten()).toEqual({ configurator: everything, session: everything })

      await settled()
      // A preparation starts after the change settles (half a second); one that did not start by now never does.
      if (!entry.prepares) await sleep(1000)
      const { configuratorId } = fixture
      const prepared = await db.preparation.count({ where: { configuratorId, startedAt: { gte: changedAt } } })
      expect(prepared > 0).toBe(entry.prepares)
    })
  })
})
