import { z } from 'zod'
import { ZSessionKey } from '@/lib/api/schemas'
import { ZFilePath } from '@/lib/storage/file-path'

export const ZRendererParams = z.object({ sessionId: z.uuid(), rendererId: z.uuid() })
export const ZRendererFileParams = ZRendererParams.extend({
  path: z.array(z.string()).describe("a path inside the configurator's renderer directory, e.g. shaders/wood.frag"),
})
export const ZRendererFileQuery = z.object({
  key: ZSessionKey.optional().describe('the renderingKey; replaces the Authorization and X-API-KEY headers'),
})

/** Shader and texture paths are relative to the configurator's `renderer` directory. */
const ZRendererPath = ZFilePath.describe("path relative to the configurator's renderer directory")
const number = z.number()

const UNIFORM_TYPES = ['float', 'int', 'bool', 'vec2', 'vec3', 'vec4', 'color', 'sampler2d'] as const

export const ZUniform = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('float'), value: number }),
    z.strictObject({ type: z.literal('int'), value: z.number().int() }),
    z.strictObject({ type: z.literal('bool'), value: z.boolean() }),
    z.strictObject({ type: z.literal('vec2'), value: z.tuple([number, number]) }),
    z.strictObject({ type: z.literal('vec3'), value: z.tuple([number, number, number]) }),
    z.strictObject({ type: z.literal('vec4'), value: z.tuple([number, number, number, number]) }),
    z.strictObject({
      type: z.literal('color'),
      value: z
        .string()
        .regex(/^#[0-9a-fA-F]{6}$/, 'must be a hex colour like "#ff0000"')
        .describe('CSS hex colour #rrggbb'),
    }),
    z.strictObject({
      type: z.literal('sampler2d'),
      value: z.discriminatedUnion(
        'external',
        [
          z.strictObject({ url: ZRendererPath, external: z.literal(false) }),
          z.strictObject({
            url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL when external is true' }).max(2000),
            external: z.literal(true),
          }),
        ],
        { error: (issue) => (issue.code === 'invalid_union' ? 'must be true or false' : undefined) },
      ),
    }),
  ],
  { error: (issue) => (issue.code === 'invalid_union' ? `must be one of ${UNIFORM_TYPES.join(', ')}` : undefined) },
)
export type Uniform = z.infer<typeof ZUniform>

export const ZMaterial = z.strictObject({
  vertexShader: ZRendererPath,
  fragmentShader: ZRendererPath,
  uniforms: z
    .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), ZUniform, {
      error: (issue) => (issue.code === 'invalid_key' ? 'a uniform name must be a GLSL identifier' : undefined),
    })
    .optional(),
})
export type Material = z.infer<typeof ZMaterial>

/**
 * Scene settings: `materials` by part index ("0" paints the first colour of the model) is
 * checked strictly; any other top-level setting (background, lights, ...) is kept as sent.
 */
export const ZSceneSettings = z.looseObject({
  materials: z.record(z.string().regex(/^(0|[1-9][0-9]{0,5})$/), ZMaterial, {
    error: (issue) =>
      issue.code === 'invalid_key'
        ? 'a material key must be a part index: "0", "1", ... (at most 6 digits)'
        : undefined,
  }),
})
export type SceneSettings = z.infer<typeof ZSceneSettings>
