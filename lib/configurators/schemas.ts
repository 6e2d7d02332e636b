import { z } from 'zod'
import { CAD_TYPES, CAD_VERSIONS_NOTE, cadSystem, DEFAULT_CAD_TYPE } from '@/lib/cad/engines'
import { RENDERER_TYPES, RENDERER_VERSIONS } from '@/lib/renderers/renderer-types'
import { ZDateTime } from '@/lib/api/schemas'
import { ZFilePath } from '@/lib/storage/file-path'
import { ZManufacturing } from '@/lib/manufacturing/schemas'
import { ZRefusedValues } from '@/lib/cad/refused-values-schema'

const DEFAULT_SYSTEM = cadSystem(DEFAULT_CAD_TYPE)

export const ZConfiguratorId = z.uuid()
export const ZConfiguratorParams = z.object({ configuratorId: ZConfiguratorId })

const ZVariables = z.record(
  z.string().regex(/^\$?[A-Za-z_][A-Za-z0-9_]*$/, 'must be a variable name'),
  z.union([z.number(), z.string(), z.boolean()]),
)

/** Free JSON, with the keys the server itself reads checked for their shape. */
export const ZExtraSettings = z.looseObject({
  quality: z
    .looseObject({ preview: ZVariables.optional(), final: ZVariables.optional() })
    .optional()
    .describe(
      `CAD variable overrides for model (preview) and finalizedmodel (final), e.g. ${JSON.stringify(DEFAULT_SYSTEM.qualityExample)} for ${DEFAULT_SYSTEM.name}`,
    ),
  limits: z
    .looseObject({ buildSeconds: z.number().positive().optional() })
    .optional()
    .describe('a shorter build time limit than the server maximum'),
  renderers: z
    .array(z.enum(RENDERER_TYPES))
    .max(RENDERER_TYPES.length)
    .optional()
    .describe('further renderer types each session gets'),
  shareSourceWithCustomers: z
    .boolean()
    .optional()
    .describe("whether a customer's saved session zip holds the configurator's files"),
  manufacturing: ZManufacturing.optional().describe("parts' labels and materials, prices, the printability rules"),
})
export type ExtraSettings = z.infer<typeof ZExtraSettings>

const ZConfiguratorFields = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(10_000),
  mainFile: ZFilePath.describe(`path inside the \`configurator\` directory, e.g. ${DEFAULT_SYSTEM.mainFile}`),
  cadType: z.enum(CAD_TYPES),
  cadVersion: z
    .string()
    .max(100)
    .describe(
      `the engine version that builds (GET /api/capabilities lists this server's; the fastest present by default): ${CAD_VERSIONS_NOTE}`,
    ),
  rendererType: z.enum(RENDERER_TYPES),
  rendererVersion: z.enum(RENDERER_VERSIONS),
  extraSettings: ZExtraSettings,
})

/** A version sent as "" means the server's default, as if it were not sent. */
function versionInput<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === '' ? undefined : value), schema.optional())
}

const ZConfiguratorInput = ZConfiguratorFields.partial().extend({
  cadVersion: versionInput(ZConfiguratorFields.shape.cadVersion),
  rendererVersion: versionInput(ZConfiguratorFields.shape.rendererVersion),
})

export const ZCreateConfigurator = ZConfiguratorInput.required({ name: true, mainFile: true })
export type CreateConfiguratorInput = z.infer<typeof ZCreateConfigurator>

export const ZUpdateConfigurator = ZConfiguratorInput
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

export const ZArchiveQuery = z.object({
  replace: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true')
    .describe('true: the archive replaces every configurator file'),
  mainFile: ZFilePath.optional().describe("the main file's path in the archive, when the archive leaves it open"),
})

export const ZArchiveUpload = z.object({
  mainFile: z.string(),
  files: z.array(ZConfiguratorFile).describe('the files the archive stored'),
})

export const ZTestDriveSample = z.object({
  values: z
    .record(z.string(), z.union([z.number(), z.string(), z.boolean(), z.array(z.number())]))
    .describe('every parameter: set them to reproduce it'),
  outcome: z.enum(['built', 'failed', 'time limit']),
  message: z.string().describe("the first error or warning of the build's log when it did not build"),
})

export const ZPreparationFailure = z.object({
  build: z.string().describe('which model: "the defaults", or "preset <name>"'),
  message: z.string().describe('the first error of its log, as the engine printed it'),
  log: z.string().describe('the errors and warnings of its log (at most 16 KB)'),
})

export const ZPreparationRefusals = ZRefusedValues.extend({
  build: z.string().describe('at which values: "the defaults", or "preset <name>"'),
})

export const ZPreparation = z.object({
  state: z
    .enum(['none', 'preparing', 'ready', 'failed'])
    .describe('none: the model has not changed since the server prepares models'),
  draft: z
    .string()
    .describe("the version of the draft prepared; '' before the first preparation. Publishing takes only this version"),
  // To the millisecond (ISO 8601): two preparations may begin within one second.
  startedAt: z.iso.datetime().nullable(),
  durationMs: z.number().int().nullable().describe('null while preparing'),
  builds: z.number().int().describe('models built: the defaults and each preset'),
  failedBuilds: z.number().int().describe('of those, the ones that did not build'),
  message: z.string().describe('why it failed'),
  failures: z.array(ZPreparationFailure).describe('each model of the preparation that did not build'),
  testDrive: z
    .object({ done: z.boolean(), samples: z.array(ZTestDriveSample) })
    .describe('random combinations within the ranges, built after the preparation behind every other build'),
  refusals: z
    .object({ done: z.boolean(), maps: z.array(ZPreparationRefusals) })
    .describe(
      'where the model refuses values at the defaults and at each preset, searched one after another after the test drive, behind every other build (docs/refused-values.md)',
    ),
})

/** A vector parameter's value: 1 to 4 numbers. */
export const ZVector = z.array(z.number()).min(1).max(4)

/** Values by parameter key, as setting them and saving a preset send them. */
export const ZSetParameters = z.record(z.string(), z.looseObject({ value: z.unknown() }))

/** A named set of values of the model's parameters (the designer's presets). */
export const ZPreset = z.object({
  name: z.string(),
  values: z
    .record(z.string(), z.union([z.number(), z.string(), z.boolean(), ZVector]))
    .describe('the values it gives the parameters it names'),
})
