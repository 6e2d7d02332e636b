import { db } from '@/lib/db'
import { externalUrlProblem } from '@/lib/render/own-host'
import type { SceneSettings } from '@/lib/renderers/schemas'

const RENDERER_ROOT = 'renderer/'

/** Every file a scene loads from the renderer directory, by the field that names it. */
function referencedFiles(scene: SceneSettings): { field: string; path: string }[] {
  return Object.entries(scene.materials).flatMap(([index, material]) => [
    { field: `materials.${index}.vertexShader`, path: material.vertexShader },
    { field: `materials.${index}.fragmentShader`, path: material.fragmentShader },
    ...Object.entries(material.uniforms ?? {}).flatMap(([name, uniform]) =>
      uniform.type === 'sampler2d' && !uniform.value.external ? [{ field: `materials.${index}.uniforms.${name}.value.url`, path: uniform.value.url }] : [],
    ),
  ])
}

/** One message per shader or texture the configurator does not have, naming the field; empty when all exist. */
export async function findMissingSceneFiles(configuratorId: string, scene: SceneSettings): Promise<string[]> {
  const references = referencedFiles(scene)
  if (references.length === 0) return []
  const existing = await db.configuratorFile.findMany({
    where: { configuratorId, path: { in: [...new Set(references.map((reference) => RENDERER_ROOT + reference.path))] } },
    select: { path: true },
  })
  const paths = new Set(existing.map((file) => file.path))
  return references
    .filter((reference) => !paths.has(RENDERER_ROOT + reference.path))
    .map((reference) => `${reference.field}: ${RENDERER_ROOT}${reference.path} is not among the configurator's files`)
}

/** One message per external texture whose host a render may not reach (this server, private addresses), naming the field. */
export function findRefusedExternalTextures(scene: SceneSettings, ownNames: string[]): string[] {
  return Object.entries(scene.materials).flatMap(([index, material]) =>
    Object.entries(material.uniforms ?? {}).flatMap(([name, uniform]) => {
      const problem = uniform.type === 'sampler2d' && uniform.value.external ? externalUrlProblem(uniform.value.url, ownNames) : null
      return problem ? [`materials.${index}.uniforms.${name}.value.url: ${problem}; external textures must be on public addresses of other servers`] : []
    }),
  )
}
