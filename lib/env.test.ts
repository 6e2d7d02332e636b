import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { CAD_SETTING_NAMES } from '@/lib/cad/engines'
import { SETTING_NAMES } from '@/lib/env'

// The configuration table in docs/configuration.md is written by hand: it must name exactly the
// settings lib/env.ts reads, and TZ, which Node reads itself.

const NODE_READS = ['TZ']

function documentedSettings(): string[] {
  const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../docs/configuration.md'), 'utf8').split('\n')
  const start = doc.indexOf('| variable | default | meaning |')
  const rows = doc.slice(start + 2, doc.indexOf('', start))
  return rows.flatMap((row) =>
    [...(row.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]!),
  )
}

describe('the configuration table in docs/configuration.md', () => {
  it('names every setting lib/env.ts reads, and no other', () => {
    expect(documentedSettings().length).toBeGreaterThan(0)
    expect(documentedSettings().sort()).toEqual([...SETTING_NAMES, ...CAD_SETTING_NAMES, ...NODE_READS].sort())
  })
})
