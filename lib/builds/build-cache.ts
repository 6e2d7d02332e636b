import { z } from 'zod'
import type { EngineLog } from '@/lib/cad/engine'
import type { Mesh } from '@/lib/cad/mesh/mesh'
import { measureMesh } from '@/lib/cad/mesh/measure-mesh'
import type { PrintMeasures, SolidMeasure } from '@/lib/cad/mesh/printability'
import { deserializeMesh, serializeMesh } from '@/lib/cad/mesh/serialize-mesh'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { logger } from '@/lib/log'
import { metrics } from '@/lib/metrics'
import { onShutdown } from '@/lib/shutdown'
import { parseColumn, toJsonInput } from '@/lib/json-columns'
import { ZBoundingBox } from '@/lib/manufacturing/schemas'
import { storage } from '@/lib/storage/object-storage'

const ZWallSample = z.object({ thickness: z.number(), at: z.tuple([z.number(), z.number(), z.number()]) })
const ZSolidMeasure = z.object({
  volume: z.number(),
  area: z.number(),
  boundingBox: ZBoundingBox,
  closed: z.boolean(),
  bodies: z.number(),
  wall: ZWallSample.nullable(),
  thinnestWalls: z.array(ZWallSample),
}) satisfies z.ZodType<SolidMeasure>

/** A build's measures, as `CacheEntry.data` stores them: null for a build that failed. */
const ZObjectInfo = z
  .object({
    boundingBox: ZBoundingBox,
    volume: z.number(),
    /** Of closed parts (CadJob kind `parts`). */
    print: z.object({ whole: ZSolidMeasure, parts: z.array(ZSolidMeasure) }).optional(),
  })
  .nullable()
type ObjectInfo = NonNullable<z.infer<typeof ZObjectInfo>>

export interface CachedBuild {
  key: string
  /** Where this answer came from: `built` means the engine ran for it. */
  source: 'memory' | 'stored' | 'built'
  mesh: Mesh | null
  /** Of an export (CadJob kind `export`): the file its engine wrote. */
  file?: Uint8Array
  log: EngineLog
  objectInfo: ObjectInfo | null
}

const EXPORT = 'export:'

/** An export's key: what is stored for it is the file itself, not a mesh. */
export function exportKey(type: string, buildKey: string): string {
  return `${EXPORT}${type}:${buildKey}`
}

const MEMORY_ENTRIES = 32

// Recently used meshes stay in memory so a cached answer costs no disk read.
const memory = new Map<string, CachedBuild>()

export function remember(build: CachedBuild): CachedBuild {
  memory.delete(build.key)
  memory.set(build.key, build)
  for (const key of memory.keys()) {
    if (memory.size <= MEMORY_ENTRIES) break
    memory.delete(key)
  }
  return build
}

const TOUCH_INTERVAL_MS = 60_000
const touched = new Map<string, number>()

/** Marks a build as used for LRU eviction; at most once a minute per build, never awaited. `lastUsedAt`: as its row says, when known. */
function touch(key: string, lastUsedAt?: Date): void {
  const now = Date.now()
  if (lastUsedAt && now - lastUsedAt.getTime() < TOUCH_INTERVAL_MS) touched.set(key, lastUsedAt.getTime())
  if (now - (touched.get(key) ?? 0) < TOUCH_INTERVAL_MS) return
  touched.set(key, now)
  void db.cacheEntry.updateMany({ where: { key }, data: { lastUsedAt: new Date(now) } }).catch(() => {})
}

function meshKey(key: string): string {
  return `cache/${key}.mesh`
}

/**
 * Every key stored, on the embedded database, where this process is the only one storing builds:
 * a key it never stored (most slider moves) costs no query on the way to the engine. Read once,
 * then kept by writeBuild; a key deleted since stays in it, and its lookup finds nothing, as before.
 */
let storedKeys: Promise<Set<string>> | undefined

function keysStoredHere(): Promise<Set<string>> | undefined {
  if (env.DATABASE_URL) return undefined
  storedKeys ??= db.cacheEntry.findMany({ select: { key: true } }).then((rows) => new Set(rows.map(({ key }) => key)))
  storedKeys.catch(() => (storedKeys = undefined))
  return storedKeys
}

export async function loadBuild(key: string): Promise<CachedBuild | null> {
  const stored = await keysStoredHere()?.catch(() => undefined)
  if (stored && !stored.has(key)) return null
  // Both reads at once: a failed build has no mesh, which is no error then.
  const [entry, bytes] = await Promise.all([
    db.cacheEntry.findUnique({ where: { key } }),
    storage.readBuffer(meshKey(key)).catch(() => null),
  ])
  if (!entry || (entry.ok && !bytes)) return null
  let mesh: Mesh | null = null
  const log = { message: entry.logMessage, error: entry.logError }
  if (key.startsWith(EXPORT)) {
    touch(key, entry.lastUsedAt)
    return { key, source: 'stored', mesh, ...(entry.ok && { file: new Uint8Array(bytes!) }), log, objectInfo: null }
  }
  if (entry.ok) {
    try {
      mesh = deserializeMesh(bytes!)
    } catch {
      return null
    }
  }
  // A build stored a moment ago (by a worker, for this request) needs no touch.
  touch(key, entry.lastUsedAt)
  const objectInfo = parseColumn(ZObjectInfo, entry.data, { table: 'CacheEntry', id: key, column: 'data' })
  return { key, source: 'stored', mesh, log, objectInfo }
}

/** A build in memory or in the stored cache, never built. */
export async function findBuild(key: string): Promise<CachedBuild | null> {
  const hot = memory.get(key)
  if (hot) return hot
  // Answered a moment ago and already out of memory (32 builds a busy start-up makes): its write is under way.
  await writing.get(key)?.catch(() => {})
  return loadBuild(key)
}

// Writes of builds answered before they were stored (and the eviction they may start): a queue
// worker waits for its build's before saying it is done (its asker reads the stored copy),
// shutdown for all.
const writing = new Map<string, Promise<void>>()
let flushesOnShutdown = false

/**
 * The engine's build of `key`, answered at once and stored in the background (a cache may always
 * be lost: a build whose write failed is built again when asked for).
 */
export function storeBuild(
  key: string,
  mesh: Mesh | null,
  log: EngineLog,
  print?: PrintMeasures | null,
  file?: Uint8Array | null,
): CachedBuild {
  if (!flushesOnShutdown) {
    // A clean stop finishes the writes of builds already answered.
    flushesOnShutdown = true
    onShutdown(() => buildStored())
  }
  const objectInfo = mesh ? { ...measureMesh(mesh), ...(print && { print }) } : null
  const written = writeBuild(key, mesh ? serializeMesh(mesh) : (file ?? null), log, objectInfo)
  writing.set(key, written)
  void written
    .catch((error: unknown) => logger.error({ err: error, cacheKey: key }, 'could not store a build'))
    .finally(() => writing.get(key) === written && writing.delete(key))
  return { key, source: 'built', mesh, ...(file && { file }), log, objectInfo }
}

/** `bytes`: the serialized mesh, or an export's file; null when the build failed. */
async function writeBuild(key: string, bytes: Uint8Array | null, log: EngineLog, objectInfo: ObjectInfo | null) {
  if (bytes) await storage.put(meshKey(key), bytes)
  const data = {
    ok: bytes !== null,
    data: toJsonInput(ZObjectInfo, objectInfo),
    logMessage: log.message,
    logError: log.error,
    sizeBytes: bytes?.byteLength ?? 0,
  }
  const now = new Date()
  // The row written is not read back: only its key, not the data column, returns.
  await db.cacheEntry.upsert({
    where: { key },
    create: { key, ...data, lastUsedAt: now },
    update: { ...data, lastUsedAt: now },
    select: { key: true },
  })
  touched.set(key, now.getTime())
  void keysStoredHere()?.then(
    (stored) => stored.add(key),
    () => {},
  )
  await evictIfFull(data.sizeBytes)
}

/** Resolves once the build of `key` (or every build) answered here is in the stored cache; rejects when its write failed. */
export async function buildStored(key?: string): Promise<void> {
  await (key === undefined ? Promise.allSettled(writing.values()) : writing.get(key))
}

/** How long this process trusts its count of the cache's bytes (other processes store too). */
const RECOUNT_MS = 60_000
/** The stored cache's bytes as last counted here, plus what this process stored since. */
let cachedBytes: { bytes: number; countedAt: number } | undefined
let evicting = Promise.resolve()

/** Summing the whole cache on every store would cost each build a query: only when the count says it is full, or is old. */
function evictIfFull(added: number): Promise<void> {
  if (cachedBytes) cachedBytes.bytes += added
  const isFull =
    !cachedBytes ||
    cachedBytes.bytes > env.BUILD_CACHE_MB * 1024 * 1024 ||
    Date.now() - cachedBytes.countedAt > RECOUNT_MS
  if (isFull) evicting = evicting.then(evict, evict)
  return evicting
}

/** Drops least recently used builds until the cache fits in BUILD_CACHE_MB. */
async function evict(): Promise<void> {
  const limit = env.BUILD_CACHE_MB * 1024 * 1024
  const { _sum } = await db.cacheEntry.aggregate({ _sum: { sizeBytes: true } })
  let bytes = _sum.sizeBytes ?? 0
  if (bytes > limit) {
    const oldest = await db.cacheEntry.findMany({
      where: { sizeBytes: { gt: 0 } },
      orderBy: { lastUsedAt: 'asc' },
      take: 1000,
    })
    for (const entry of oldest) {
      if (bytes <= limit) break
      await db.cacheEntry.delete({ where: { key: entry.key } }).catch(() => {})
      await storage.delete(meshKey(entry.key))
      memory.delete(entry.key)
      touched.delete(entry.key)
      bytes -= entry.sizeBytes
    }
  }
  cachedBytes = { bytes, countedAt: Date.now() }
}

interface Flight {
  promise: Promise<CachedBuild>
  /** Callers waiting for it; when the last one gives up, the build is stopped. */
  waiters: number
  controller: AbortController
  /** Resolved once a caller that is no background work waits for it: a background build becomes theirs. */
  foreground: Promise<void>
  promote: () => void
}

const inFlight = new Map<string, Flight>()

/** Makes the build of `key`: builds it, and stores it. */
export type ProduceBuild = (signal: AbortSignal, foreground: Promise<void>) => Promise<CachedBuild>

/**
 * The build for `key` (a hash of everything that determines it): from memory, from the
 * stored cache, or by calling `produce` (which builds and stores it) once however many callers
 * in this process ask at the same time. A caller shares the build and its time limit, whoever
 * started it: a customer (`isBackground` false) joining a background build makes it theirs.
 * A caller whose `signal` aborts stops waiting (rejected with its reason); the build itself
 * stops only when no caller is left, so a build another session waits for goes on.
 */
export async function getCachedBuild(
  key: string,
  produce: ProduceBuild,
  signal?: AbortSignal,
  isBackground = false,
): Promise<CachedBuild> {
  const hot = memory.get(key)
  if (hot) {
    touch(key)
    metrics.cacheAnswers.inc({ answer: 'memory' })
    return { ...remember(hot), source: 'memory' }
  }
  const joined = inFlight.get(key)
  if (joined) metrics.cacheAnswers.inc({ answer: 'joined' })
  const flight = joined ?? startFlight(key, produce)
  flight.waiters++
  if (!isBackground) flight.promote()
  if (!signal) return flight.promise
  return new Promise((resolve, reject) => {
    const leave = () => {
      if (--flight.waiters === 0) {
        inFlight.delete(key)
        flight.controller.abort(signal.reason)
      }
      reject(signal.reason as Error)
    }
    if (signal.aborted) return leave()
    signal.addEventListener('abort', leave, { once: true })
    flight.promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', leave))
  })
}

function startFlight(key: string, produce: ProduceBuild): Flight {
  const controller = new AbortController()
  let promote!: () => void
  const foreground = new Promise<void>((resolve) => (promote = resolve))
  const promise = (async (): Promise<CachedBuild> => {
    const stored = await loadBuild(key)
    metrics.cacheAnswers.inc({ answer: stored ? 'stored' : 'miss' })
    return remember(stored ?? (await produce(controller.signal, foreground)))
  })()
  const flight: Flight = { promise, waiters: 0, controller, foreground, promote }
  // Forgotten before any caller hears how it ended, so that one asking again starts anew. A build
  // every caller left rejects with nobody listening.
  const forget = () => void (inFlight.get(key) === flight && inFlight.delete(key))
  promise.then(forget, forget)
  inFlight.set(key, flight)
  return flight
}
