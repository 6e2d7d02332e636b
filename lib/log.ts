import pino, { type Logger } from 'pino'
import pretty from 'pino-pretty'
import { env } from '@/lib/env'
import { processSingleton } from '@/lib/process-singleton'

// One JSON line per event (pino) on standard output, errors with their causes (`err`); readable
// lines outside production. No secret is ever passed to it: requests are logged by their path,
// never their query or headers, and these field names are censored wherever they appear.
const SECRET_FIELDS = [
  'authorization',
  'password',
  'token',
  'accessToken',
  'key',
  'modelKey',
  'renderingKey',
  'secret',
  'secretKey',
  'apiKey',
]

function createLog(): Logger {
  const options = {
    level: env.LOG_LEVEL,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]), censor: '[secret]' },
  }
  if (process.env.NODE_ENV === 'production') return pino(options)
  // Synchronous, in this thread: a transport's worker thread cannot load from Next's bundle.
  return pino(options, pretty({ sync: true, ignore: 'pid,hostname' }))
}

/** Node's warnings (a dependency's deprecation) as log lines: Node would print them as free text. */
function logWarnings(logger: Logger): Logger {
  process.removeAllListeners('warning')
  process.on('warning', (warning) =>
    logger.warn({ warning: { name: warning.name, code: (warning as NodeJS.ErrnoException).code } }, warning.message),
  )
  return logger
}

export const logger = processSingleton('log', () => logWarnings(createLog()))
