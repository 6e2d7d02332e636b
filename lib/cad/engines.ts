import type { CadSystem } from '@/lib/cad/cad-system'
import { openscadSystem } from '@/lib/cad/openscad/cad-system'
import { replicadSystem } from '@/lib/cad/replicad/cad-system'

/**
 * The CAD systems a configurator may name, the first the default; which versions of each this
 * server builds with is lib/cad/engine-versions.ts's (server only).
 */
const CAD_SYSTEMS = { openscad: openscadSystem, replicad: replicadSystem } satisfies Record<string, CadSystem>

export type CadType = keyof typeof CAD_SYSTEMS

/** The names of every system's settings, beside lib/env.ts's SETTING_NAMES (docs/configuration.md). */
export const CAD_SETTING_NAMES = Object.values(CAD_SYSTEMS).flatMap(({ settings }) => Object.keys(settings))

export const CAD_TYPES = Object.keys(CAD_SYSTEMS) as [CadType, ...CadType[]]

export const DEFAULT_CAD_TYPE: CadType = CAD_TYPES[0]

export function isCadType(name: string): name is CadType {
  return Object.hasOwn(CAD_SYSTEMS, name)
}

/** How models use an installed library, by each system that has libraries. */
export const LIBRARY_USES = CAD_TYPES.flatMap((type) => {
  const { name, libraryUse } = CAD_SYSTEMS[type] as CadSystem
  return libraryUse === null ? [] : [`${libraryUse} (${name})`]
}).join(', ')

/** What each system's versions are, for the API's documentation. */
export const CAD_VERSIONS_NOTE = CAD_TYPES.map((type) => `${type}: ${CAD_SYSTEMS[type].versionsNote}`).join('; ')

/** The system of a configurator's cadType, which was checked against CAD_TYPES when it was set. */
export function cadSystem(cadType: string): CadSystem {
  if (!isCadType(cadType)) throw new Error(`no CAD system ${cadType}`)
  return CAD_SYSTEMS[cadType]
}

/** Every system's export types (STEP, …), with the names of the systems that write each, for the API's documentation. */
export const EXPORT_TYPES: Record<string, string[]> = {}
for (const { name, exportTypes } of Object.values(CAD_SYSTEMS) as CadSystem[])
  for (const type of Object.keys(exportTypes)) (EXPORT_TYPES[type] ??= []).push(name)

/** Each system's source file extensions with its media type. */
export const SOURCE_MEDIA_TYPES: Record<string, string> = Object.fromEntries(
  Object.values(CAD_SYSTEMS).flatMap(({ sourceExtensions, mediaType }) =>
    sourceExtensions.map((extension) => [extension, mediaType]),
  ),
)
