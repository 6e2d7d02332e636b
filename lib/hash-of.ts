import { createHash } from 'node:crypto'

/** sha256 (hex) of a value's JSON: equal values, equal hashes (keys in the order written). */
export function hashOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex')
}
