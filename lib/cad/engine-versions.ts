import type { CadEngine, EngineVersion, EngineVersions } from '@/lib/cad/engine'
import { type CadType, CAD_TYPES, isCadType } from '@/lib/cad/engines'
import { openscadVersionsOnServer } from '@/lib/cad/openscad/versions'
import { replicadVersionsOnServer } from '@/lib/cad/replicad/versions'

// The engine versions this server builds with, by CAD system. A configurator's `cadVersion`
// picks one; a new system joins here with one line, beside its line in lib/cad/engines.ts.

const ON_SERVER: Record<CadType, EngineVersions> = {
  openscad: openscadVersionsOnServer,
  replicad: replicadVersionsOnServer,
}

export function cadVersions(cadType: string): EngineVersion[] {
  return isCadType(cadType) ? ON_SERVER[cadType].versions() : []
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

/** At start-up: an engine setting that cannot be used (OPENSCAD_BINARY) ends it, with one line naming it. */
export function checkEngines(): void {
  for (const cadType of CAD_TYPES) ON_SERVER[cadType].versions()
}

/** Starts every engine's workers (and reads the machine's fonts) before the first request needs them. */
export function warmUpEngines(): void {
  for (const cadType of CAD_TYPES) ON_SERVER[cadType].warmUp()
}
