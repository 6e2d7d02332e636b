import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// The code's imports, read with TypeScript's own pre-processor (type imports too): they go
// one way, from each layer down (docs/architecture.md), and no module reaches itself through
// them, so that each part can be read, tested and moved on its own.

const ROOT = path.resolve(import.meta.dirname, '..')
const SOURCES = ['lib', 'app', 'components']

/** The layers from the bottom up, each by the folders and files it holds. */
export const LAYERS: [name: string, members: string[]][] = [
  [
    'base',
    [
      'lib/env.ts',
      'lib/process-singleton.ts',
      'lib/log.ts',
      'lib/metrics.ts',
      'lib/email.ts',
      'lib/data-dir.ts',
      'lib/format-date.ts',
      'lib/hash-of.ts',
      'lib/shutdown.ts',
      'lib/background.ts',
    ],
  ],
  [
    'database',
    [
      'lib/db.ts',
      'lib/json-columns.ts',
      'lib/embedded-lock.ts',
      'lib/migrations.ts',
      'lib/notifications.ts',
      'lib/recent-reads.ts',
      'lib/remembered-rows.ts',
    ],
  ],
  ['primitives', ['lib/api/', 'lib/storage/', 'lib/outbound/', 'lib/client/']],
  ['engine', ['lib/cad/', 'lib/manufacturing/', 'lib/slicing/', 'lib/sandbox/']],
  ['builds', ['lib/builds/', 'lib/queue/']],
  [
    'domain',
    [
      'lib/auth/',
      'lib/users/',
      'lib/applications/',
      'lib/configurators/',
      'lib/libraries/',
      'lib/fonts/',
      'lib/sessions/',
      'lib/renderers/',
      'lib/render/',
    ].concat([
      'lib/releases/',
      'lib/publishing/',
      'lib/snapshots/',
      'lib/webhooks/',
      'lib/services/',
      'lib/capabilities/',
      'lib/health/',
      'lib/backup/',
      'lib/embed/',
      'lib/demo/',
    ]),
  ],
  ['endpoints', ['lib/endpoints/']],
  ['app', ['lib/start-up.ts', 'lib/node-version-guard.ts', 'lib/set-up-database.ts', 'app/', 'components/']],
]

function sourceFiles(): string[] {
  return SOURCES.flatMap((dir) =>
    fs
      .readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.includes('generated'))
      .map((file) => path.join(dir, file)),
  )
}

function resolve(specifier: string, from: string, known: Set<string>): string | undefined {
  const base = specifier.startsWith('@/')
    ? specifier.slice(2)
    : specifier.startsWith('.')
      ? path.join(path.dirname(from), specifier)
      : undefined
  if (base === undefined) return undefined
  return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((candidate) => known.has(candidate))
}

function specifiers(file: string): string[] {
  return ts
    .preProcessFile(fs.readFileSync(path.join(ROOT, file), 'utf8'), true, false)
    .importedFiles.map(({ fileName }) => fileName)
}

/** Each file's imports of other files of the project. */
function importGraph(): Map<string, string[]> {
  const files = sourceFiles()
  const known = new Set(files)
  return new Map(
    files.map((file) => [
      file,
      specifiers(file)
        .map((specifier) => resolve(specifier, file, known))
        .filter((target): target is string => target !== undefined),
    ]),
  )
}

const DATABASE_OR_STORAGE_PACKAGES = /^(pg|@prisma\/.*|@electric-sql\/.*|@aws-sdk\/.*|@\/lib\/generated\/.*)$/

/** What the engine's files import besides settings and the engine itself: it takes files and values, never a row or a blob. */
function engineReachesBeyond(graph: Map<string, string[]>): string[] {
  const ENGINE = LAYERS.findIndex(([name]) => name === 'engine')
  const engineFiles = [...graph.keys()].filter((file) => layerOf(file) === ENGINE)
  return engineFiles.flatMap((file) => [
    ...graph
      .get(file)!
      .filter((target) => layerOf(target) !== ENGINE && layerOf(target) !== 0)
      .map((target) => `${file} -> ${target}`),
    ...specifiers(file)
      .filter((specifier) => DATABASE_OR_STORAGE_PACKAGES.test(specifier))
      .map((specifier) => `${file} -> ${specifier}`),
  ])
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

function layerOf(file: string): number {
  const index = LAYERS.findIndex(([, members]) =>
    members.some((member) => (member.endsWith('/') ? file.startsWith(member) : file === member)),
  )
  if (index < 0) throw new Error(`${file} is in no layer of lib/imports.test.ts`)
  return index
}

/** Every import from a lower layer up to a higher one, as `file (layer) -> target (layer)`. */
function upwardImports(graph: Map<string, string[]>): string[] {
  const name = (file: string) => `${file} (${LAYERS[layerOf(file)]![0]})`
  return [...graph].flatMap(([file, targets]) =>
    targets.filter((target) => layerOf(target) > layerOf(file)).map((target) => `${name(file)} -> ${name(target)}`),
  )
}

/** The graph of lib/'s folders (and its top-level files): an import between two files joins their folders. */
function folderGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const folderOf = (file: string) => (file.startsWith('lib/') ? file.split('/').slice(0, 2).join('/') : file)
  const folders = new Map<string, Set<string>>()
  for (const [file, targets] of graph) {
    if (!file.startsWith('lib/')) continue
    const from = folderOf(file)
    const joined = folders.get(from) ?? new Set<string>()
    for (const target of targets) if (folderOf(target) !== from) joined.add(folderOf(target))
    folders.set(from, joined)
  }
  return new Map([...folders].map(([folder, targets]) => [folder, [...targets]]))
}

describe('imports', () => {
  it('finds a cycle when there is one', () => {
    expect(
      cycles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', ['c.ts']],
          ['c.ts', ['a.ts']],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']])
  })

  it('go from each layer down, never up', () => {
    expect(upwardImports(new Map([['lib/db.ts', ['lib/api/errors.ts']]]))).toEqual([
      'lib/db.ts (database) -> lib/api/errors.ts (primitives)',
    ])
    expect(upwardImports(importGraph())).toEqual([])
  })

  it('leave the engine pure of the database and storage', () => {
    expect(engineReachesBeyond(new Map([['lib/cad/engine.ts', ['lib/db.ts', 'lib/env.ts']]]))).toEqual([
      'lib/cad/engine.ts -> lib/db.ts',
    ])
    expect(engineReachesBeyond(importGraph())).toEqual([])
  })

  it('run in no cycle', () => {
    const graph = importGraph()
    expect(graph.size).toBeGreaterThan(100)
    expect(cycles(graph).map((cycle) => cycle.join(' -> '))).toEqual([])
  })

  it("join lib/'s folders in no cycle either: each concept can be read knowing only those below it", () => {
    expect(cycles(folderGraph(importGraph())).map((cycle) => cycle.join(' -> '))).toEqual([])
  })
})
