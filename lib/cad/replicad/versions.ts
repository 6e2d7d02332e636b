import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { EngineVersion, EngineVersions } from '@/lib/cad/engine'
import { replicadEngine, replicadPool } from '@/lib/cad/replicad/replicad-engine'

const require = createRequire(import.meta.url)

/** An installed package's version, from the package.json above its entry point (replicad exports none). */
function versionOf(name: string): string {
  let folder = path.dirname(require.resolve(name))
  while (!fs.existsSync(path.join(folder, 'package.json'))) folder = path.dirname(folder)
  return (JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) as { version: string }).version
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
