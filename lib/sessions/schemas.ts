import { z } from 'zod'
import { ZSessionKey } from '@/lib/api/schemas'
import { DRAWING_FORMATS, MESH_FORMATS } from '@/lib/cad/mesh/export-mesh'
import { EXPORT_TYPES } from '@/lib/cad/engines'
import { ZSetParameters, ZVector } from '@/lib/configurators/schemas'
import { ZBoundingBox, ZPrintReport, ZSliceReport } from '@/lib/manufacturing/schemas'

export const ZSessionParams = z.object({ sessionId: z.uuid() })
export const ZSessionFileParams = ZSessionParams.extend({ fileId: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/) })

export const ZCreateSession = z
  .object({
    configuratorId: z.uuid().optional(),
    configuratorUUID: z.uuid().optional(),
    draft: z
      .boolean()
      .optional()
      .describe(
        "the owner's draft link: the configurator's draft instead of its current release (an addition to the interface)",
      ),
  })
  .refine((body) => body.configuratorId ?? body.configuratorUUID, {
    message: 'configuratorId is required',
    path: ['configuratorId'],
  })

export const ZRestoreQuery = z.object({ configuratorId: z.uuid().optional(), configuratorUUID: z.uuid().optional() })

export const ZSession = z.object({
  id: z.uuid(),
  renderingKey: z.string(),
  modelKey: z.string(),
  renderSessions: z.array(z.object({ rendererType: z.string(), sessionId: z.uuid() })),
})

const ZCommon = { name: z.string().describe('display name'), group: z.string(), caption: z.string() }
const ZRange = {
  min: z.number().nullable().describe('null when the model sets no bound'),
  max: z.number().nullable(),
  step: z.number().nullable(),
}
const ZOptionValue = z.union([z.number(), z.string()])

export const ZParameter = z.discriminatedUnion('type', [
  z.object({ ...ZCommon, type: z.literal('float'), ...ZRange, default: z.number(), value: z.number() }),
  z.object({
    ...ZCommon,
    type: z.literal('vector').describe('min, max and step apply to each element'),
    ...ZRange,
    default: ZVector,
    value: ZVector,
  }),
  z.object({
    ...ZCommon,
    type: z.literal('choice'),
    default: ZOptionValue,
    value: ZOptionValue,
    options: z.array(z.object({ value: ZOptionValue, label: z.string() })),
  }),
  z.object({ ...ZCommon, type: z.literal('bool'), default: z.boolean(), value: z.boolean() }),
  z.object({
    ...ZCommon,
    type: z.literal('string'),
    default: z.string(),
    value: z.string(),
    maxLength: z.number().nullable(),
  }),
  z.object({
    ...ZCommon,
    type: z.literal('file'),
    default: z.string(),
    value: z.string().describe('a session file id, or ""'),
  }),
])
export const ZParameterSet = z.record(z.string(), ZParameter)
export type ParameterSet = z.infer<typeof ZParameterSet>

/** How many candidates one prefetch may name: the value passed and a few steps around it. */
export const MAX_PREFETCH_CANDIDATES = 6
export const ZPrefetch = z.object({
  candidates: z
    .array(ZSetParameters)
    .min(1)
    .max(MAX_PREFETCH_CANDIDATES)
    .describe(
      'value sets the customer may set next, likeliest first, each as a set-parameters body over the stored values',
    ),
})
export const ZPrefetchAccepted = z.object({
  candidates: z
    .number()
    .int()
    .describe('guesses that replaced the previous ones; each builds when a worker is free for it'),
})

const ZPresetName = z
  .string()
  .min(1)
  .max(200)
  .describe("the set's name in the model's parameter set file; may hold dots and spaces")
export const ZPresetParams = ZSessionParams.extend({ name: ZPresetName })

export const ZObjectInfo = z.object({
  boundingBox: ZBoundingBox,
  volume: z.number().describe('mm³; 0 for a 2D model'),
  area: z.number().optional().describe('mm², of a 2D model only (its bounding box runs from Z 0 to 0)'),
  print: ZPrintReport,
  slice: ZSliceReport,
  ar: z
    .object({
      possible: z.boolean(),
      triangles: z.number().int(),
      reason: z
        .string()
        .nullable()
        .describe('why the model has no AR view, in words a customer reads; null when it has'),
    })
    .describe("whether AR viewers can show the model (docs/ar.md): a 2D model or one over AR's size limit cannot"),
})

export const ZLog = z.object({
  message: z.string(),
  error: z.string(),
  timestamp: z.number().int().describe('milliseconds since the epoch'),
})

const MODEL_TYPES = [...Object.keys(MESH_FORMATS), ...Object.keys(DRAWING_FORMATS), ...Object.keys(EXPORT_TYPES)]
const EXPORTS_NOTE = Object.entries(EXPORT_TYPES)
  .map(([type, systems]) => `${type} of ${systems.join(' and ')} models`)
  .join(', ')

export const ZModelQuery = z.object({
  type: z
    .string()
    .refine((type) => MODEL_TYPES.includes(type), { message: `must be one of ${MODEL_TYPES.join(', ')}` })
    .optional()
    .describe(
      `stl (binary, the default), 3mf, glb (metres, Y up) or off of a 3D model, or usdz for AR Quick Look (422 over AR's size limit, objectinfo's ar says why), ${EXPORTS_NOTE}; svg (the default) or dxf of a 2D model, in millimetres, or its glb; another type is 422`,
    ),
  filename: z.string().min(1).max(255).optional(),
  key: ZSessionKey.optional().describe('the modelKey; replaces the Authorization and X-API-KEY headers'),
})

export const ZSessionFileEntry = z.object({
  name: z.string().describe('the file id'),
  ext: z.string(),
  contentType: z.string(),
})
export const ZAddFileQuery = z.object({ name: z.string().describe('the file name the model sees; one path segment') })
