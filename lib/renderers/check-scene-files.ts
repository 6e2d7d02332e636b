import type { FieldError } from '@/lib/api/errors'
import { db } from '@/lib/db'
import { externalUrlProblem } from '@/lib/render/server/own-host'
import type { SceneSettings } from '@/lib/renderers/schemas'

const RENDERER_ROOT = 'renderer/'

/** Every file a scene loads from the renderer directory, by the field that names it. */
function referencedFiles(scene: SceneSettings): { field: FieldError['path']; path: string }[] {
  return Object.entries(scene.materials).flatMap(([index, material]) => [
    { field: ['materials', index, 'vertexShader'], path: material.vertexShader },
    { field: ['materials', index, 'fragmentShader'], path: material.fragmentShader },
    ...Object.entries(material.uniforms ?? {}).flatMap(([name, uniform]) =>
      uniform.type === 'sampler2d' && !uniform.value.external ? [{ field: ['materials', index, 'uniforms', name, 'value', 'url'], path: uniform.value.url }] : [],
    ),
  ])
}

/** One field error per shader or texture the configurator does not have; empty when all exist. */
export async function findMissingSceneFiles(configuratorId: string, scene: SceneSettings): Promise<FieldError[]> {
  const references = referencedFiles(scene)
  if (references.length === 0) return []
  const existing = await db.configuratorFile.findMany({
    where: { configuratorId, path: { in: [...new Set(references.map((reference) => RENDERER_ROOT + reference.path))] } },
    select: { path: true },
  })
  const paths = new Set(existing.map((file) => file.path))
  return references
    .filter((reference) => !paths.has(RENDERER_ROOT + reference.path))
    .map((reference) => ({ path: reference.field, message: `${RENDERER_ROOT}${reference.path} is not among the configurator's files` }))
}

/** One field error per external texture whose host a render may not reach (this server, private addresses). */
export function findRefusedExternalTextures(scene: SceneSettings, ownNames: string[]): FieldError[] {
  return Object.entries(scene.materials).flatMap(([index, material]) =>
    Object.entries(material.uniforms ?? {}).flatMap(([name, uniform]) => {
      const problem = uniform.type === 'sampler2d' && uniform.value.external ? externalUrlProblem(uniform.value.url, ownNames) : null
      return problem
        ? [{ path: ['materials', index, 'uniforms', name, 'value', 'url'], message: `${problem}; external textures must be on public addresses of other servers` }]
        : []
    }),
  )
}
