import type { EngineLog } from '../engine'

// Why a build failed, in the words a customer can read: the designer's own message when an
// `assert()` refused the values, else OpenSCAD's first error without its prefix and file place.
// Pure, for the customer page and the embed as well as the server.

const ASSERTION = /^ERROR: Assertion '(.*)' failed(?:: "((?:[^"\\]|\\.)*)")?/
const PLACE = /,? in file [^,]*, line \d+\.?$/

export function failureReason({ error }: EngineLog): string | null {
  const line = error.split('\n').find((candidate) => candidate.startsWith('ERROR:'))
  if (line === undefined) return null
  const assertion = ASSERTION.exec(line)
  if (assertion)
    return assertion[2] !== undefined
      ? assertion[2].replace(/\\(.)/g, '$1')
      : `These values break a rule of the model: ${assertion[1]}`
  return line.slice('ERROR:'.length).trim().replace(PLACE, '')
}
