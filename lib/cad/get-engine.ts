import type { CadEngine } from '@/lib/cad/engine'
import type { CadType } from '@/lib/cad/engines'
import { openscadEngine } from '@/lib/cad/openscad/openscad-engine'

// One entry per cadType of CAD_ENGINES; a new engine joins here and nowhere else.
const ENGINES: Record<CadType, CadEngine> = { openscad: openscadEngine }

export function getEngine(cadType: string): CadEngine {
  const engine = ENGINES[cadType as CadType]
  if (!engine) throw new Error(`no CAD engine for cadType ${cadType}`)
  return engine
}
