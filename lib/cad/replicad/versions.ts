import fs from 'node:fs'
import path from 'node:path'
import type { EngineVersion, EngineVersions } from '@/lib/cad/engine'
import { replicadEngine, replicadPool } from '@/lib/cad/replicad/replicad-engine'

/**
 * An installed package's version, from its package.json (replicad exports none to require). Read
 * from the app's node_modules, as the worker threads are found (worker-pool.ts): inside Next's
 * bundle a module resolved by a name held in a variable cannot be found.
 */
function versionOf(name: string): string {
  const file = path.join(process.cwd(), 'node_modules', name, 'package.json')
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version
}

let versions: EngineVersion[] | undefined

/** One version: replicad's major and minor (`1.1`), the packages that build it named in full. */
function replicadVersions(): EngineVersion[] {
  const replicad = versionOf('replicad')
  versions ??= [
    {
      version: replicad.split('.').slice(0, 2).join('.'),
      build: `replicad ${replicad}, replicad-opencascadejs ${versionOf('replicad-opencascadejs')}`,
      engine: replicadEngine,
      isFastest: true,
    },
  ]
  return versions
}

export const replicadVersionsOnServer: EngineVersions = {
  versions: replicadVersions,
  warmUp: () => void replicadPool(),
}
