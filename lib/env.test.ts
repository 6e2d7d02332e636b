import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SETTING_NAMES } from '@/lib/env'

// The README's configuration table is written by hand: it must name exactly the settings
// lib/env.ts reads, and TZ, which Node reads itself.

const NODE_READS = ['TZ']

function readmeSettings(): string[] {
  const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../README.md'), 'utf8').split('\n')
  const start = readme.indexOf('| variable | default | meaning |')
  const rows = readme.slice(start + 2, readme.indexOf('', start))
  return rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]!))
}

describe('the README configuration table', () => {
  it('names every setting lib/env.ts reads, and no other', () => {
    expect(readmeSettings().length).toBeGreaterThan(0)
    expect(readmeSettings().sort()).toEqual([...SETTING_NAMES, ...NODE_READS].sort())
  })
})
