import { describe, expect, it } from 'vitest'
import { openscadEngine } from '@/lib/cad/openscad/openscad-engine'

// Closing a model's parts runs OpenSCAD again for its CSG tree only when some colour may hide a
// part inside another. Each run echoes once: the parts' log shows how many ran.

async function closeParts(source: string) {
  const input = {
    files: [{ path: 'main.scad', data: new TextEncoder().encode(source) }],
    mainFile: 'main.scad',
    libraries: [],
    values: {},
    overrides: {},
    timeLimitMs: 60_000,
    memoryLimitBytes: 1024 * 1024 * 1024,
    scheduling: { fairness: { turn: 'parts', exclusive: [], shared: [] } },
  }
  const { mesh } = await openscadEngine.build(input)
  return openscadEngine.closeParts({ ...input, union: mesh! })
}

describe('closing parts', () => {
  it('runs no OpenSCAD for a model that names no colour, and closes its one part', async () => {
    const { mesh, log, print } = await closeParts('echo("ran");\ncube(10);\n')
    expect(log.message).not.toContain('ran')
    expect(mesh?.parts).toHaveLength(1)
    expect(print?.parts[0]?.volume).toBeCloseTo(1000, 3)
  })

  it('reads the CSG tree of a model with colours, finding a part inside another', async () => {
    const { mesh, log } = await closeParts(
      'echo("ran");\ncolor("red") cube(10);\ncolor("blue") translate([4, 4, 4]) cube(2);\n',
    )
    expect(log.message).toContain('ran')
    expect(mesh?.parts).toHaveLength(2)
  })
})
