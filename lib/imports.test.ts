import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// The code's imports, read with TypeScript's own pre-processor: no module may reach itself
// through its imports (type imports too), so that each part can be read, tested and moved
// on its own.

const ROOT = path.resolve(import.meta.dirname, '..')
const SOURCES = ['lib', 'app', 'components']

function sourceFiles(): string[] {
  return SOURCES.flatMap((dir) =>
    fs
      .readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.includes('generated'))
      .map((file) => path.join(dir, file)),
  )
}

function resolve(specifier: string, from: string, known: Set<string>): string | undefined {
  const base = specifier.startsWith('@/') ? specifier.slice(2) : specifier.startsWith('.') ? path.join(path.dirname(from), specifier) : undefined
  if (base === undefined) return undefined
  return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((candidate) => known.has(candidate))
}

/** Each file's imports of other files of the project. */
function importGraph(): Map<string, string[]> {
  const files = sourceFiles()
  const known = new Set(files)
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(fs.readFileSync(path.join(ROOT, file), 'utf8'), true, false)
      return [file, importedFiles.map(({ fileName }) => resolve(fileName, file, known)).filter((target): target is string => target !== undefined)]
    }),
  )
}

/** Every cycle, each as the path from a file back to itself (depth-first, each cycle found once by its first file). */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = []
  const state = new Map<string, 'open' | 'done'>()
  const trail: string[] = []
  const visit = (file: string) => {
    state.set(file, 'open')
    trail.push(file)
    for (const target of graph.get(file) ?? []) {
      if (state.get(target) === 'open') found.push([...trail.slice(trail.indexOf(target)), target])
      else if (!state.has(target)) visit(target)
    }
    trail.pop()
    state.set(file, 'done')
  }
  for (const file of graph.keys()) if (!state.has(file)) visit(file)
  return found
}

describe('imports', () => {
  it('finds a cycle when there is one', () => {
    expect(cycles(new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts']]]))).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']])
  })

  it('run in no cycle', () => {
    const graph = importGraph()
    expect(graph.size).toBeGreaterThan(100)
    expect(cycles(graph).map((cycle) => cycle.join(' -> '))).toEqual([])
  })
})
