import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = process.cwd()
const SCHEMA_FILES = fs.readdirSync(path.join(ROOT, 'lib'), { withFileTypes: true }).flatMap((entry) => {
  const file = path.join('lib', entry.name, 'schemas.ts')
  return entry.isDirectory() && fs.existsSync(path.join(ROOT, file)) ? [file] : []
})
// What must never reach a browser bundle: the database, Node built-ins, server-only modules.
const SERVER_ONLY =
  /^(node:|server-only$|@\/lib\/db$|@\/lib\/env$|@\/lib\/generated\/prisma|@prisma\/|pg$|@electric-sql\/)/

// Imports that are evaluated at run time: `import type` and `export type` vanish in the bundle.
function runtimeImports(file: string): string[] {
  const source = fs.readFileSync(path.join(ROOT, file), 'utf8')
  return [...source.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)].map(
    ([, specifier]) => specifier!,
  )
}

function resolveLocal(from: string, specifier: string): string | null {
  if (!specifier.startsWith('@/') && !specifier.startsWith('.')) return null
  const base = specifier.startsWith('@/') ? specifier.slice(2) : path.join(path.dirname(from), specifier)
  return (
    ['.ts', '.tsx', '/index.ts']
      .map((ending) => base + ending)
      .find((candidate) => fs.existsSync(path.join(ROOT, candidate))) ?? null
  )
}

/** Every server-only module `file` reaches through run-time imports, each with the chain that reaches it. */
function serverOnlyReach(file: string): string[] {
  const seen = new Set<string>()
  const found: string[] = []
  const visit = (current: string, chain: string[]) => {
    if (seen.has(current)) return
    seen.add(current)
    for (const specifier of runtimeImports(current)) {
      const local = resolveLocal(current, specifier)
      if (SERVER_ONLY.test(specifier)) found.push([...chain, current, specifier].join(' -> '))
      else if (local) visit(local, [...chain, current])
    }
  }
  visit(file, [])
  return found
}

describe('lib/*/schemas.ts', () => {
  it.each(SCHEMA_FILES)('%s is safe for the browser to import', (file) => {
    expect(serverOnlyReach(file)).toEqual([])
  })
})
