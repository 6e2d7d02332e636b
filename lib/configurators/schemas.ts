import { z } from 'zod'
import { CAD_ENGINES } from '@/lib/cad/engines'
import { RENDERER_TYPES, RENDERER_VERSIONS } from '@/lib/render/renderers'
import { ZDateTime } from '@/lib/api/schemas'
import { ZFilePath } from '@/lib/storage/file-path'

const cadTypes = Object.keys(CAD_ENGINES) as [keyof typeof CAD_ENGINES]

export const ZConfiguratorId = z.uuid()
export const ZConfiguratorParams = z.object({ configuratorId: ZConfiguratorId })

const ZConfiguratorFields = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(10_000),
  mainFile: ZFilePath.describe('path inside the `configurator` directory, e.g. main.scad'),
  cadType: z.enum(cadTypes),
  cadVersion: z.string(),
  rendererType: z.enum(RENDERER_TYPES),
  rendererVersion: z.enum(RENDERER_VERSIONS),
  extraSettings: z.record(z.string(), z.unknown()),
})

function checkCadVersion(value: { cadType?: string; cadVersion?: string }, context: z.RefinementCtx) {
  if (value.cadVersion === undefined) return
  const versions: readonly string[] = CAD_ENGINES[(value.cadType ?? 'openscad') as keyof typeof CAD_ENGINES]
  if (!versions.includes(value.cadVersion)) {
    context.addIssue({ code: 'custom', path: ['cadVersion'], message: `must be one of ${versions.join(', ')}` })
  }
}

export const ZCreateConfigurator = ZConfiguratorFields.partial()
  .required({ name: true, mainFile: true })
  .superRefine(checkCadVersion)
export type CreateConfiguratorInput = z.infer<typeof ZCreateConfigurator>

export const ZUpdateConfigurator = ZConfiguratorFields.partial().superRefine(checkCadVersion)
export type UpdateConfiguratorInput = z.infer<typeof ZUpdateConfigurator>

export const ZConfigurator = ZConfiguratorFields.extend({
  UUID: z.uuid(),
  userUUID: z.uuid(),
  cadType: z.string(),
  rendererType: z.string(),
  rendererVersion: z.string(),
  createdAt: ZDateTime,
  updatedAt: ZDateTime,
})
export type ConfiguratorDto = z.infer<typeof ZConfigurator>

export const ZConfiguratorFile = z.object({
  path: z.string().describe('configurator/... or renderer/...'),
  size: z.number().int(),
  contentType: z.string(),
  updatedAt: ZDateTime,
})
