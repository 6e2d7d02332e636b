import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { measureMesh } from '@/lib/cad/mesh/measure-mesh'
import { openscadEngine } from '@/lib/cad/openscad/openscad-engine'

// A snapshot built after the machine's fonts changed brings its own (lib/snapshots): the
// engine then draws text with exactly those, not with whatever this machine has.

const DEJAVU = path.join(process.cwd(), 'node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf')
const source = 'linear_extrude(1) text("Wide MW", size = 10, font = "Liberation Sans");\n'

async function widthWith(fonts?: { path: string; data: Uint8Array }[]) {
  const { mesh, log } = await openscadEngine.build({
    files: [{ path: 'main.scad', data: new TextEncoder().encode(source) }],
    mainFile: 'main.scad',
    libraries: [],
    fonts,
    values: {},
    overrides: {},
    timeLimitMs: 60_000,
    memoryLimitBytes: 1024 * 1024 * 1024,
    scheduling: { fairness: { turn: 'fonts', exclusive: [], shared: [] } },
  })
  const { boundingBox } = measureMesh(mesh!)
  return { width: boundingBox.maxX - boundingBox.minX, log }
}

describe('fonts given with a build', () => {
  it("replace the machine's: a family only the machine has is not found, the given font draws instead", async () => {
    const machine = await widthWith()
    const given = await widthWith([{ path: 'DejaVuSans.ttf', data: new Uint8Array(fs.readFileSync(DEJAVU)) }])
    expect(machine.log.error).toBe('')
    expect(given.log.error).toMatch(/font "Liberation Sans" is not available; the text uses "DejaVu Sans"/)
    expect(given.width).not.toBeCloseTo(machine.width, 1)
  })
})
