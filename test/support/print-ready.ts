// Reading a 3MF as manufacturing clients do: PrusaSlicer's command line (Debian's prusa-slicer),
// the 3MF Consortium's lib3mf in strict mode, and manifold-3d for each part's solid.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import lib3mf from '@3mfconsortium/lib3mf'
import { XMLParser } from 'fast-xml-parser'
import { strFromU8, unzipSync } from 'fflate'
import Module from 'manifold-3d'

const run = promisify(execFile)

export const PRUSA_SLICER = process.env.PRUSA_SLICER ?? '/usr/bin/prusa-slicer'

async function withFile<T>(bytes: Uint8Array, use: (file: string, dir: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paraform-3mf-'))
  try {
    const file = path.join(dir, 'model.3mf')
    fs.writeFileSync(file, bytes)
    return await use(file, dir)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** `prusa-slicer --info`: one record per object, each its `key = value` lines. */
export function slicerInfo(bytes: Uint8Array): Promise<Record<string, string>[]> {
  return withFile(bytes, async (file) => {
    const { stdout } = await run(PRUSA_SLICER, ['--info', file], { env: { ...process.env, HOME: os.tmpdir() } })
    return stdout
      .split(/^\[.*\]$/m)
      .slice(1)
      .map((block) =>
        Object.fromEntries(
          block
            .split('\n')
            .flatMap((line) =>
              line.includes(' = ') ? [line.split(' = ').map((side) => side.trim()) as [string, string]] : [],
            ),
        ),
      )
  })
}

/** What PrusaSlicer writes back when it opens the 3MF and saves it again. */
export function slicerRoundTrip(bytes: Uint8Array): Promise<Uint8Array> {
  return withFile(bytes, async (file, dir) => {
    const output = path.join(dir, 'again.3mf')
    await run(PRUSA_SLICER, ['--export-3mf', '--output', output, file], { env: { ...process.env, HOME: os.tmpdir() } })
    return new Uint8Array(fs.readFileSync(output))
  })
}

/** The G-code summary (`; key = value` lines) of a direct `prusa-slicer --export-gcode` of the 3MF with a flat config, outside any sandbox. */
export function directSlice(bytes: Uint8Array, config: string): Promise<Record<string, string>> {
  return withFile(bytes, async (file, dir) => {
    fs.writeFileSync(path.join(dir, 'config.ini'), config)
    const output = path.join(dir, 'model.gcode')
    await run(PRUSA_SLICER, ['--export-gcode', '--load', path.join(dir, 'config.ini'), '--output', output, file], {
      env: { ...process.env, HOME: dir },
    })
    const gcode = fs.readFileSync(output, 'latin1')
    return Object.fromEntries([...gcode.matchAll(/^; ([^=\n]+?) = (.*)$/gm)].map(([, key, value]) => [key!, value!]))
  })
}

/**
 * How a slice's figures differ from a direct run's summary, each as a line; none when they agree.
 * PrusaSlicer's runs of one 3MF and config differ a little (its threads add up in other orders):
 * the filament in its last digit, and once, in a loaded test run, the time by 6 s of 57 min. They
 * agree within 0.5 % of the time and 0.1 % of the filament.
 */
export function summaryDifferences(
  figures: { printTimeSeconds: number | null; materials: { lengthMm: number; weightG: number }[] },
  summary: Record<string, string>,
): string[] {
  const said = {
    seconds: summarySeconds(summary['estimated printing time (normal mode)']!),
    lengthMm: Number(summary['filament used [mm]']),
    weightG: Number(summary['filament used [g]']),
  }
  const [material = { lengthMm: NaN, weightG: NaN }, ...more] = figures.materials
  const near = (value: number, to: number, share: number, least: number) =>
    Math.abs(value - to) <= Math.max(least, Math.abs(to) * share)
  return [
    ...(more.length > 0 ? [`${figures.materials.length} materials against one`] : []),
    ...(near(figures.printTimeSeconds!, said.seconds, 0.005, 1)
      ? []
      : [`${figures.printTimeSeconds} s against ${said.seconds} s`]),
    ...(near(material.lengthMm, said.lengthMm, 0.001, 0.02)
      ? []
      : [`${material.lengthMm} mm against ${said.lengthMm} mm`]),
    ...(near(material.weightG, said.weightG, 0.001, 0.011) ? [] : [`${material.weightG} g against ${said.weightG} g`]),
  ]
}

/** `1d 2h 3m 4s` of a G-code summary in seconds. */
export function summarySeconds(time: string): number {
  const units: Record<string, number> = { d: 86400, h: 3600, m: 60, s: 1 }
  return [...time.matchAll(/(\d+)([dhms])/g)].reduce((sum, [, n, unit]) => sum + Number(n) * units[unit!]!, 0)
}

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (name) => ['object', 'volume', 'metadata', 'vertex', 'triangle', 'item', 'm:color'].includes(name),
})

export interface ThreeMfPart {
  name: string
  positions: Float32Array
  indices: Uint32Array
  /** The colour of its triangles, through the Materials extension. */
  color: string
}

/** The objects of a 3MF and each one's parts as PrusaSlicer's config names their triangle ranges. */
export function readParts(bytes: Uint8Array): {
  objects: { id: string; name?: string; parts: ThreeMfPart[]; minZ: number }[]
  items: unknown[]
} {
  const files = unzipSync(bytes)
  const model = xml.parse(strFromU8(files['3D/3dmodel.model']!)).model
  const config = xml.parse(strFromU8(files['Metadata/Slic3r_PE_model.config']!)).config
  const colors: string[] = (model.resources['m:colorgroup']?.['m:color'] ?? []).map(
    (entry: { color: string }) => entry.color,
  )
  const objects = (model.resources.object ?? []).map(
    (object: {
      id: string
      name?: string
      pindex?: string
      mesh: { vertices: { vertex: Record<string, string>[] }; triangles: { triangle: Record<string, string>[] } }
    }) => {
      const vertex = object.mesh.vertices.vertex
      const triangle = object.mesh.triangles.triangle
      const volumes: { firstid: string; lastid: string; metadata: { key: string; value: string }[] }[] =
        config.object.find((entry: { id: string }) => entry.id === object.id)?.volume ?? []
      const parts = volumes.map((volume): ThreeMfPart => {
        const triangles = triangle.slice(Number(volume.firstid), Number(volume.lastid) + 1)
        const used = [...new Set(triangles.flatMap((t) => [Number(t.v1), Number(t.v2), Number(t.v3)]))]
        const local = new Map(used.map((global, index) => [global, index]))
        return {
          name: volume.metadata.find((entry) => entry.key === 'name')!.value,
          positions: Float32Array.from(
            used.flatMap((global) => [Number(vertex[global]!.x), Number(vertex[global]!.y), Number(vertex[global]!.z)]),
          ),
          indices: Uint32Array.from(
            triangles.flatMap((t) => [local.get(Number(t.v1))!, local.get(Number(t.v2))!, local.get(Number(t.v3))!]),
          ),
          color: colors[Number(triangles[0]?.p1 ?? object.pindex ?? 0)]!,
        }
      })
      return { id: object.id, name: object.name, parts, minZ: Math.min(...vertex.map((v) => Number(v.z))) }
    },
  )
  return { objects, items: model.build.item ?? [] }
}

/** Each part's solid by manifold-3d, which accepts only closed, consistently oriented meshes. */
export async function partSolids(parts: ThreeMfPart[]) {
  const manifold = await Module()
  manifold.setup()
  return parts.map(({ positions, indices }) => {
    const solid = new manifold.Manifold(new manifold.Mesh({ numProp: 3, vertProperties: positions, triVerts: indices }))
    try {
      return { status: solid.status(), volume: solid.volume(), genus: solid.genus() }
    } finally {
      solid.delete()
    }
  })
}

/** The warnings lib3mf's reader has about the package in strict mode (it throws on errors). */
export async function lib3mfWarnings(bytes: Uint8Array): Promise<string[]> {
  const library = await lib3mf()
  const wrapper = new library.CWrapper()
  const model = wrapper.CreateModel()
  const reader = model.QueryReader('3mf')
  try {
    reader.SetStrictModeActive(true)
    library.FS.writeFile('/in.3mf', bytes)
    reader.ReadFromFile('/in.3mf')
    return Array.from({ length: reader.GetWarningCount() }, (_, i) => String(reader.GetWarning(i)))
  } finally {
    reader.delete()
    model.delete()
  }
}
