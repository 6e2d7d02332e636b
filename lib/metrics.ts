import { timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import { env } from '@/lib/env'
import { processSingleton } from '@/lib/process-singleton'

// The process's Prometheus metrics (docs/operations.md lists them). Labels are bounded: an
// operation's id, a status, an engine version, never an id, a value or a path.

/** Seconds from 5 ms to 2 min: a cached answer to a slow model's build. */
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120]

function createMetrics() {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const registers = [registry]
  return {
    registry,
    /** Read when Prometheus scrapes (queue depth, slots): each process adds the ones it has. */
    collectors: [] as (() => Promise<void> | void)[],
    httpRequests: new Counter({
      name: 'paraform_http_requests_total',
      help: 'HTTP requests answered, by operation (the API operation id, or page, asset, metrics, unknown) and status',
      labelNames: ['operation', 'status'],
      registers,
    }),
    httpDuration: new Histogram({
      name: 'paraform_http_request_duration_seconds',
      help: 'Time from a request to its last byte sent, by operation',
      labelNames: ['operation'],
      buckets: SECONDS,
      registers,
    }),
    builds: new Counter({
      name: 'paraform_builds_total',
      help: 'Engine runs ended, by engine version, kind (build, parts, parameters), quality and outcome (built, failed, timed_out, cancelled)',
      labelNames: ['engine', 'kind', 'quality', 'outcome'],
      registers,
    }),
    buildQueueWait: new Histogram({
      name: 'paraform_build_queue_wait_seconds',
      help: 'Time from asking for an engine run to its start, the build queue included',
      labelNames: ['engine', 'kind'],
      buckets: SECONDS,
      registers,
    }),
    buildEngineTime: new Histogram({
      name: 'paraform_build_engine_seconds',
      help: "An engine run's own time, from its start to its result",
      labelNames: ['engine', 'kind', 'quality'],
      buckets: SECONDS,
      registers,
    }),
    cacheAnswers: new Counter({
      name: 'paraform_build_cache_answers_total',
      help: 'Models asked for, by where the answer came from: memory, stored (the shared cache), joined (a build of the same key under way) or miss (built)',
      labelNames: ['answer'],
      registers,
    }),
    queueDepth: new Gauge({
      name: 'paraform_build_queue_depth',
      help:
        'Engine runs waiting: in this process ' +
        '(queue="process") and, on PostgreSQL, ' +
        'in the shared build queue (queue="postgres", ' +
        'the same from every process)',
      labelNames: ['queue'],
      registers,
    }),
    buildSlots: new Gauge({
      name: 'paraform_build_slots',
      help: "This process's engine workers by kind (customer, background) and state (busy, free)",
      labelNames: ['kind', 'state'],
      registers,
    }),
    backgroundWork: new Counter({
      name: 'paraform_background_work_total',
      help:
        'Background engine runs ' +
        '(print figures, preparation, ' +
        'prefetch candidates) started, yielded (held ' +
        'back while customers builds ran or waited), ' +
        'dropped (a candidate no worker was free for) and paused (a slice stopped while customers builds ran)',
      labelNames: ['event'],
      registers,
    }),
    webhookDeliveries: new Counter({
      name: 'paraform_webhook_deliveries_total',
      help:
        'Webhook delivery attempts by outcome: ' +
        'delivered, retrying (failed, tried ' +
        'again later) or failed (the last attempt ' +
        'failed, or the webhook was removed)',
      labelNames: ['outcome'],
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: 'paraform_rate_limit_refusals_total',
      help: 'Requests refused by a limit, by limit',
      labelNames: ['limit'],
      registers,
    }),
  }
}

export type Metrics = ReturnType<typeof createMetrics>

// One set per process: Next's server bundle holds its own copy of this module beside the custom server's.
export const metrics = processSingleton('metrics', createMetrics)

async function scrape(): Promise<string> {
  // Each collector adds its own part (every worker pool its slots and waiting runs).
  metrics.buildSlots.reset()
  metrics.queueDepth.reset()
  await Promise.allSettled(metrics.collectors.map(async (collect) => collect()))
  return metrics.registry.metrics()
}

function isMetricsToken(header: string | undefined): boolean {
  const token = /^Bearer (.+)$/.exec(header ?? '')?.[1]
  if (!token || !env.METRICS_TOKEN) return false
  const [given, expected] = [Buffer.from(token), Buffer.from(env.METRICS_TOKEN)]
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/** `GET /metrics` for Prometheus: 404 without METRICS_TOKEN, 401 without its bearer token. */
export async function serveMetrics(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const answer = (status: number, code: string, message: string, headers: Record<string, string> = {}) => {
    const body = JSON.stringify({ error: { code, message } })
    response
      .writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers })
      .end(body)
  }
  if (!env.METRICS_TOKEN) return answer(404, 'not_found', 'Metrics are off: METRICS_TOKEN is not set')
  if (request.method !== 'GET') return answer(405, 'method_not_allowed', 'Metrics answer GET only', { allow: 'GET' })
  if (!isMetricsToken(request.headers.authorization))
    return answer(401, 'unauthorized', 'Metrics need the bearer token METRICS_TOKEN', { 'www-authenticate': 'Bearer' })
  const body = await scrape()
  response
    .writeHead(200, { 'content-type': metrics.registry.contentType, 'content-length': Buffer.byteLength(body) })
    .end(body)
}
