import { z } from 'zod'

export const ZDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  .describe('YYYY-MM-DD HH:MM:SS in the server time zone')

export const ZUuidResponse = z.object({ UUID: z.uuid() })

/** The largest value of a PostgreSQL `integer` column. */
export const MAX_INT4 = 2 ** 31 - 1

/**
 * An integer in a path or query: decimal digits only (no sign, space, hex or exponent, which
 * `Number()` would read), from `min` to `max`. Documented as an integer with its range.
 */
export function ZIntegerParam(min: number, max: number) {
  const message = `must be an integer from ${min} to ${max}`
  return z
    .string()
    .refine((text) => /^[0-9]{1,16}$/.test(text) && Number(text) >= min && Number(text) <= max, message)
    .transform(Number)
    .meta({ type: 'integer', minimum: min, maximum: max })
}

/** Whether a path or query field is a ZIntegerParam: a bad one is 422, not an unknown resource's 404. */
export function isIntegerParam(schema: z.ZodType | undefined): boolean {
  return schema?.meta()?.type === 'integer'
}

export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable_entity: 422,
  too_many_requests: 429,
  internal_error: 500,
  bad_gateway: 502,
  service_unavailable: 503,
  gateway_timeout: 504,
} as const

export type ErrorCode = keyof typeof ERROR_STATUS
/** A client's mistake (4xx): the OpenAPI document lists, operation by operation, those it can answer. */
export type ClientErrorCode = Exclude<
  ErrorCode,
  'internal_error' | 'bad_gateway' | 'service_unavailable' | 'gateway_timeout'
>

export const ZFieldError = z.object({
  path: z
    .array(z.union([z.string(), z.number()]))
    .describe('the field, relative to what was sent: the JSON body, or ["query", name]'),
  message: z.string(),
})
export type FieldError = z.infer<typeof ZFieldError>

export const ZErrorBody = z.object({
  error: z.object({
    code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    fields: z
      .array(ZFieldError)
      .optional()
      .describe('on 422: each field that is wrong; on a 409 that asks for a choice: each choice'),
  }),
})
export type ErrorBody = z.infer<typeof ZErrorBody>

/** A modelKey or renderingKey (lib/sessions/session-keys.ts): purpose, id, expiry and signature, some 100 characters. */
export const ZSessionKey = z.string().max(200)
