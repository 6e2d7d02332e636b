import { RateLimiterPrisma, RateLimiterRes } from 'rate-limiter-flexible'
import { AppError } from '@/lib/api/errors'
import { metrics } from '@/lib/metrics'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { onShutdown } from '@/lib/shutdown'

// Counters live in the database (table RateLimit) so every instance on one database shares them.
const stores = new Map<string, RateLimiterPrisma>()

/** rate-limiter-flexible's Prisma store; one per name and setting, settings being read at call time. */
function store(name: string, points: number, durationSeconds: number): RateLimiterPrisma {
  const id = `${name}:${points}:${durationSeconds}`
  let limiter = stores.get(id)
  if (!limiter) {
    limiter = new RateLimiterPrisma({
      storeClient: db,
      tableName: 'rateLimit',
      keyPrefix: name,
      points,
      duration: durationSeconds,
    })
    stores.set(id, limiter)
  }
  return limiter
}

/** A refusal by the limit `name`, counted for operators. */
function tooManyRequests(name: string, message: string, msBeforeNext: number): AppError {
  metrics.rateLimitRefusals.inc({ limit: name })
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000))
  return new AppError('too_many_requests', `${message}; try again in ${seconds} s`, { 'retry-after': String(seconds) })
}

/** The limiter's refusal as a 429; a store failure stays an error. */
function refusal(error: unknown, name: string, message: string): unknown {
  return error instanceof RateLimiterRes ? tooManyRequests(name, message, error.msBeforeNext) : error
}

/** How often addAfterAnswer stores a key's points at most. */
const STORE_EVERY_MS = 1000

export interface RateLimitSettings {
  points: number
  durationSeconds: number
}

/**
 * At most `points` a window of `durationSeconds` per key (a fixed window from the first point).
 * `consume` counts and refuses past the limit; `check` and `add` split that for work whose cost
 * is known only afterwards: refuse before it when used up, count after it ran.
 */
export class RateLimit {
  constructor(
    private readonly name: string,
    private readonly settings: () => RateLimitSettings,
    private readonly message: string,
  ) {}

  private get limiter() {
    const { points, durationSeconds } = this.settings()
    return store(this.name, points, durationSeconds)
  }

  /** Counts `points` against `key`; 429 with Retry-After when that goes past the limit (they stay counted). */
  async consume(key: string, points = 1): Promise<void> {
    this.known.delete(key)
    await this.limiter
      .consume(key, points)
      .catch((error: unknown) => Promise.reject(refusal(error, this.name, this.message)))
  }

  /** Points added here by addAfterAnswer and not yet stored, by key. */
  private readonly unstored = new Map<string, number>()
  /** Each key's next store of its unstored points, at most one at a time. */
  private readonly storing = new Map<string, Promise<void>>()
  private storesOnShutdown = false

  /**
   * Each key's points and window end as last read or written, on the embedded database, where this
   * process is the only one counting: a check then needs no query. Expired ones are dropped as found.
   */
  private readonly known = new Map<string, { consumed: number; endsAt: number }>()

  /**
   * Rejects with a 429 and Retry-After when `key` has used up its points; counts nothing. Answers
   * at once, undefined, when this process knows the key's use and it is not used up: a caller that
   * awaits nothing then reaches its work before whatever else the event loop holds (a build reaches
   * its worker before the session's write runs on the embedded database's thread).
   */
  check(key: string): Promise<void> | undefined {
    const known = this.knownUse(key)
    if (known) {
      const refused = this.overLimit(key, known)
      return refused && Promise.reject(refused)
    }
    return this.limiter.get(key).then((used) => {
      const refused = this.overLimit(key, this.remember(key, used))
      if (refused) throw refused
    })
  }

  private overLimit(key: string, used: { consumed: number; endsAt: number }): AppError | undefined {
    const consumed = used.consumed + (this.unstored.get(key) ?? 0)
    if (consumed < this.limiter.points) return undefined
    return tooManyRequests(this.name, this.message, used.endsAt - Date.now())
  }

  /** Counts `points` against `key` without refusing; answers the points now used in this window. */
  async add(key: string, points: number): Promise<number> {
    return this.remember(key, await this.limiter.penalty(key, points)).consumed
  }

  private knownUse(key: string) {
    const use = this.known.get(key)
    if (use && use.endsAt > Date.now()) return use
    this.known.delete(key)
    return undefined
  }

  /** Keys left after the last sweep of expired ones: a sweep runs once they have doubled, so each costs O(1) over time. */
  private knownAfterSweep = 0

  private remember(key: string, used: RateLimiterRes | null) {
    // No row: no window began, and none begins but by this process's own add (which remembers it).
    const endsIn = used ? used.msBeforeNext : this.settings().durationSeconds * 1000
    const use = { consumed: used?.consumedPoints ?? 0, endsAt: Date.now() + endsIn }
    if (!env.DATABASE_URL && endsIn > 0) {
      this.known.set(key, use)
      if (this.known.size > 2 * this.knownAfterSweep + 64) {
        for (const [other, { endsAt }] of this.known) if (endsAt <= Date.now()) this.known.delete(other)
        this.knownAfterSweep = this.known.size
      }
    }
    return use
  }

  /**
   * As `add`, but stored after the answer the caller is about to send, and a key's points at most
   * once every STORE_EVERY_MS: on the embedded database (the only caller) each store is two
   * statements on this thread, and a customer moving back to back adds points many times a
   * second. This process's checks count the points meanwhile, and a clean stop stores them; a
   * crash forgets at most that long.
   */
  addAfterAnswer(key: string, points: number): void {
    if (!this.storesOnShutdown) {
      this.storesOnShutdown = true
      onShutdown(() => this.stored())
    }
    this.unstored.set(key, (this.unstored.get(key) ?? 0) + points)
    if (!this.storing.has(key)) this.storing.set(key, this.storeLater(key))
  }

  private async storeLater(key: string): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, STORE_EVERY_MS))
    const points = this.unstored.get(key)!
    await this.add(key, points).catch(() => {})
    const left = this.unstored.get(key)! - points
    if (left > 0) {
      this.unstored.set(key, left)
      this.storing.set(key, this.storeLater(key))
    } else {
      this.unstored.delete(key)
      this.storing.delete(key)
    }
  }

  /** Once the points added by addAfterAnswer so far are stored. */
  async stored(): Promise<void> {
    while (this.storing.size > 0) await Promise.all(this.storing.values())
  }

  async reset(key: string): Promise<void> {
    this.known.delete(key)
    await this.limiter.delete(key)
  }
}

export interface BackOffSettings {
  /** Failures a key may have before back-off starts. */
  freeFailures: number
  blockSeconds: number
  maxBlockSeconds: number
}

const ATTEMPT_MEMORY_SECONDS = 24 * 3600

/**
 * Growing back-off against guessing: a key may fail `freeFailures` times; each further failure
 * blocks it for `blockSeconds`, doubling with every failure up to `maxBlockSeconds`. Attempts
 * are counted before they are tried and, once in back-off, pass one at a time, so parallel
 * guesses gain nothing. Counts are forgotten a day after the first, or on `reset`.
 */
export class BackOff {
  constructor(
    private readonly name: string,
    private readonly settings: () => BackOffSettings,
    private readonly message: string,
  ) {}

  private limiters() {
    const { freeFailures, blockSeconds } = this.settings()
    return {
      attempts: store(`${this.name}-attempts`, freeFailures, ATTEMPT_MEMORY_SECONDS),
      // One point: the attempt in progress, or a block set after a failure.
      gate: store(`${this.name}-gate`, 1, blockSeconds),
    }
  }

  /** Counts an attempt; 429 with Retry-After (and not counted) while the key is blocked. */
  async begin(key: string): Promise<void> {
    const { attempts, gate } = this.limiters()
    const attempt = await attempts.penalty(key, 1)
    if (attempt.consumedPoints <= attempts.points) return
    try {
      await gate.consume(key, 1)
    } catch (error) {
      await attempts.reward(key, 1)
      throw refusal(error, this.name, this.message)
    }
  }

  /** The attempt failed: past the free failures, block the key for a doubling time. */
  async fail(key: string): Promise<void> {
    const { freeFailures, blockSeconds, maxBlockSeconds } = this.settings()
    const { attempts, gate } = this.limiters()
    const failures = (await attempts.get(key))?.consumedPoints ?? 0
    if (failures >= freeFailures)
      await gate.block(key, Math.min(blockSeconds * 2 ** (failures - freeFailures), maxBlockSeconds))
  }

  /** The attempt succeeded and does not count (e.g. one of many users behind one address). */
  async forgive(key: string): Promise<void> {
    const { attempts, gate } = this.limiters()
    await Promise.all([attempts.reward(key, 1), gate.delete(key)])
  }

  /** Forgets every attempt of the key. */
  async reset(key: string): Promise<void> {
    const { attempts, gate } = this.limiters()
    await Promise.all([attempts.delete(key), gate.delete(key)])
  }
}

const loginBackOff = (freeFailures: number): BackOffSettings => ({
  freeFailures,
  blockSeconds: env.LOGIN_BLOCK_SECONDS,
  maxBlockSeconds: env.LOGIN_BLOCK_MAX_SECONDS,
})

/** Every limit of the service; settings are read at each call. */
export const limits = {
  loginByAccount: new BackOff(
    'login-account',
    () => loginBackOff(env.LOGIN_FAILURES_PER_ACCOUNT),
    'Too many failed sign-ins for this account',
  ),
  loginByAddress: new BackOff(
    'login-address',
    () => loginBackOff(env.LOGIN_FAILURES_PER_ADDRESS),
    'Too many failed sign-ins from this address',
  ),
  anonymousTokensByKey: new RateLimit(
    'anonymous-key',
    () => ({ points: env.ANONYMOUS_TOKENS_PER_MINUTE_PER_KEY, durationSeconds: 60 }),
    'Too many anonymous tokens for this application',
  ),
  anonymousTokensByAddress: new RateLimit(
    'anonymous-address',
    () => ({ points: env.ANONYMOUS_TOKENS_PER_MINUTE_PER_ADDRESS, durationSeconds: 60 }),
    'Too many anonymous tokens from this address',
  ),
  // In milliseconds of worker time: a build's cost is known only once it ran.
  customerBuildTime: new RateLimit(
    'customer-build-ms',
    () => ({ points: env.CUSTOMER_BUILD_SECONDS * 1000, durationSeconds: env.CUSTOMER_BUILD_WINDOW_SECONDS }),
    'This customer has used up its build time',
  ),
}
