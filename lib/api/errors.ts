import { z } from 'zod'
import { Prisma } from '@/lib/generated/prisma/client'

export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable_entity: 422,
  too_many_requests: 429,
  internal_error: 500,
  bad_gateway: 502,
  gateway_timeout: 504,
} as const

export type ErrorCode = keyof typeof ERROR_STATUS

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'AppError'
  }

  get status(): number {
    return ERROR_STATUS[this.code]
  }
}

export const ZErrorBody = z.object({
  error: z.object({ code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]), message: z.string() }),
})

export function errorResponse(code: ErrorCode, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error: { code, message } }, { status: ERROR_STATUS[code], headers })
}

export function describeZodError(error: z.ZodError, where?: string): string {
  return error.issues
    .map((issue) => {
      const field = [where, ...issue.path.map(String)].filter(Boolean).join('.')
      return field ? `${field}: ${issue.message}` : issue.message
    })
    .join('; ')
}

/**
 * Maps anything thrown inside a handler to the error body; unknown errors are logged, never
 * shown. Request input is validated by route() and answered 422 there, so any other ZodError
 * is a server fault.
 */
export function toErrorResponse(error: unknown): Response {
  if (error instanceof AppError) return errorResponse(error.code, error.message, error.headers)
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    if (error.code === 'P2025') return errorResponse('not_found', 'Not found')
    if (error.code === 'P2002') return errorResponse('conflict', 'Already exists')
  }
  console.error('paraform: unexpected error:', error instanceof Error ? (error.stack ?? error.message) : error)
  return errorResponse('internal_error', 'Internal server error')
}
