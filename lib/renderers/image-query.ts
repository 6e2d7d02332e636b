import { z } from 'zod'
import { ZIntegerParam, ZSessionKey } from '@/lib/api/schemas'

export const IMAGE_TYPES = ['png', 'jpeg', 'webp'] as const
export type ImageType = (typeof IMAGE_TYPES)[number]

const size = ZIntegerParam(1, 4096)
const coordinate = z.coerce
  .number({ error: 'must be a number' })
  .refine(Number.isFinite, 'must be a finite number')
  .optional()

// Camera vectors come in three query parameters each; half a vector is an error, not a guess.
const VECTORS = { p: 'position', v: 'view', t: 'top', r: 'right' } as const

export const ZImageQuery = z
  .object({
    w: size.describe('width in pixels, 1..4096'),
    h: size.describe('height in pixels, 1..4096'),
    type: z
      .enum([...IMAGE_TYPES, 'jpg'], { error: `must be one of ${IMAGE_TYPES.join(', ')}` })
      .default('png')
      .transform((type): ImageType => (type === 'jpg' ? 'jpeg' : type)),
    px: coordinate.describe('camera position (mm, Z up)'),
    py: coordinate,
    pz: coordinate,
    vx: coordinate.describe('view direction; default: towards the model centre'),
    vy: coordinate,
    vz: coordinate,
    tx: coordinate.describe('top (up) vector; default +Z'),
    ty: coordinate,
    tz: coordinate,
    rx: coordinate.describe('right vector; used for the top vector when t is absent'),
    ry: coordinate,
    rz: coordinate,
    a: z.coerce
      .number({ error: 'must be a number' })
      .gt(0)
      .lt(180)
      .optional()
      .describe('vertical angle of view in degrees (default 40)'),
    s: z.coerce
      .number({ error: 'must be a number' })
      .min(0)
      .max(100)
      .default(1)
      .describe('scales the light that moves with the camera'),
    key: ZSessionKey.optional().describe('the renderingKey; replaces the Authorization and X-API-KEY headers'),
  })
  .superRefine((query, context) => {
    for (const letter of Object.keys(VECTORS) as (keyof typeof VECTORS)[]) {
      const names = (['x', 'y', 'z'] as const).map((axis) => `${letter}${axis}` as const)
      const given = names.filter((name) => query[name] !== undefined)
      if (given.length > 0 && given.length < 3) {
        context.addIssue({
          code: 'custom',
          path: [letter],
          message: `${names.join(', ')} (the camera ${VECTORS[letter]}) come together`,
        })
      }
    }
    if (query.vx !== undefined && query.vx === 0 && query.vy === 0 && query.vz === 0) {
      context.addIssue({ code: 'custom', path: ['v'], message: 'the view direction must not be zero' })
    }
  })
export type ImageQuery = z.infer<typeof ZImageQuery>
