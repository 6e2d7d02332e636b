import type { z } from 'zod'
import { ERROR_STATUS, type ErrorCode, type FieldError } from '@/lib/api/schemas'

export type { ErrorCode, FieldError }

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    /** What the error is about, field by field: the wrong fields of a 422, the choices of a 409. */
    readonly fields?: FieldError[],
  ) {
    super(message)
    this.name = 'AppError'
  }

  get status(): number {
    return ERROR_STATUS[this.code]
  }
}

/** 422 naming each wrong field of what was sent; its message reads them as one sentence. */
export class ValidationError extends AppError {
  declare readonly fields: FieldError[]

  constructor(
    fields: FieldError[],
    message = fields
      .map(({ path, message }) => (path.length > 0 ? `${path.join('.')}: ${message}` : message))
      .join('; '),
  ) {
    super('unprocessable_entity', message, {}, fields)
    this.name = 'ValidationError'
  }
}

export function errorResponse(
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
  fields?: FieldError[],
): Response {
  return Response.json({ error: { code, message, fields } }, { status: ERROR_STATUS[code], headers })
}

/** A zod error's issues as fields, under `prefix` (e.g. ["query"]). */
export function zodFields(error: z.ZodError, prefix: FieldError['path'] = []): FieldError[] {
  return error.issues.map((issue) => ({
    path: [...prefix, ...issue.path.map((key) => (typeof key === 'number' ? key : String(key)))],
    message: issue.message,
  }))
}

/**
 * Maps anything thrown inside a handler to the error body; an unknown error is a 500 (route()
 * logs it), its details never shown. Request input is validated by route() and answered 422
 * there, so any other ZodError is a server fault.
 */
export function toErrorResponse(error: unknown): Response {
  if (error instanceof AppError) return errorResponse(error.code, error.message, error.headers, error.fields)
  const prismaCode = prismaErrorCode(error)
  if (prismaCode === 'P2025') return errorResponse('not_found', 'Not found')
  if (prismaCode === 'P2002') return errorResponse('conflict', 'Already exists')
  if (prismaCode !== undefined && DATABASE_UNREACHABLE.has(prismaCode))
    return errorResponse('service_unavailable', 'The database cannot be reached; try again later')
  return errorResponse('internal_error', 'Internal server error')
}

// Prisma's codes for a database that cannot be reached, dropped the connection, or has no free one.
const DATABASE_UNREACHABLE = new Set(['P1001', 'P1002', 'P1017', 'P2024'])

// Recognised by name rather than instanceof: importing the Prisma client here would pull it
// into the browser through every schema that uses AppError (lib/storage/file-path.ts).
function prismaErrorCode(error: unknown): string | undefined {
  if (!(error instanceof Error) || error.name !== 'PrismaClientKnownRequestError' || !('code' in error))
    return undefined
  return typeof error.code === 'string' ? error.code : undefined
}
