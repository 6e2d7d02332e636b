import { z } from 'zod'
import { MAX_INT4, ZDateTime, ZIntegerParam } from '@/lib/api/schemas'
import { ZConfiguratorParams, ZPreparationFailure } from '@/lib/configurators/schemas'
import { ZBoundingBox } from '@/lib/manufacturing/schemas'
import { ZParameter } from '@/lib/sessions/schemas'

const ZReleaseNumber = ZIntegerParam(1, MAX_INT4)

export const ZReleaseParams = ZConfiguratorParams.extend({
  number: ZReleaseNumber.describe("the release's number: 1 for the first publish"),
})

export const ZPublishRelease = z.strictObject({
  note: z.string().max(2000).default('').describe('what changed, for the designer and the shop'),
  draft: z
    .string()
    .max(64) // a sha256 in hex
    .optional()
    .describe(
      'the draft version the designer reviewed (GET .../preparation answers it): publishing a draft that changed since is 409',
    ),
  override: z
    .boolean()
    .default(false)
    .describe(
      "publish although the preparation found models that do not build (the defaults, a preset, the test drive's samples)",
    ),
})
export type PublishReleaseInput = z.infer<typeof ZPublishRelease>

export const ZDefaultsModel = z
  .object({ volume: z.number().describe('mm³'), boundingBox: ZBoundingBox })
  .describe("the defaults' model at publishing")

export const ZRelease = z
  .object({
    number: z.number().int(),
    note: z.string(),
    createdAt: ZDateTime,
    current: z.boolean().describe('whether new sessions get this release'),
    mainFile: z.string(),
    cadVersion: z.string(),
    files: z.number().int().describe('how many files it holds'),
    defaults: ZDefaultsModel.nullable().describe('null when the defaults did not build'),
    overridden: z.array(ZPreparationFailure).describe('what did not build when it was published anyway'),
  })
  .describe(
    "an immutable publication of the configurator's draft: its files by content hash, settings, parameters and presets",
  )
export type ReleaseDto = z.infer<typeof ZRelease>

export const ZCompareQuery = z.object({ from: ZReleaseNumber, to: ZReleaseNumber })

const ZFileChange = z.object({
  path: z.string(),
  change: z.enum(['added', 'removed', 'changed']),
  diff: z
    .string()
    .nullable()
    .describe(
      'a unified diff of the text; null for binary files, files over 256 KB and changes too large to diff in time',
    ),
  noDiff: z
    .string()
    .nullable()
    .describe(
      'why diff is null ("binary", "larger than 256 KB", "too many changes to diff within 3 s"); null when there is a diff',
    ),
})

export const ZReleaseComparison = z.object({
  from: z.number().int(),
  to: z.number().int(),
  files: z.array(ZFileChange).describe('files whose content differs, by path'),
  parameters: z.object({
    added: z.record(z.string(), ZParameter),
    removed: z.record(z.string(), ZParameter),
    changed: z.record(z.string(), z.object({ from: ZParameter, to: ZParameter })),
  }),
  defaults: z.object({ from: ZDefaultsModel.nullable(), to: ZDefaultsModel.nullable() }),
})
export type ReleaseComparison = z.infer<typeof ZReleaseComparison>
