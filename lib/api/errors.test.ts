import { describe, expect, it } from 'vitest'
import { toErrorResponse } from '@/lib/api/errors'
import { ZErrorBody } from '@/lib/api/schemas'
import { Prisma } from '@/lib/generated/prisma/client'

const prismaError = (code: string) =>
  new Prisma.PrismaClientKnownRequestError('failed', { code, clientVersion: Prisma.prismaVersion.client })

describe('toErrorResponse', () => {
  it.each([
    ['P2025', 404, 'not_found'],
    ['P2002', 409, 'conflict'],
  ])('answers the Prisma error %s with %i', async (code, status, errorCode) => {
    const response = toErrorResponse(prismaError(code))
    expect(response.status).toBe(status)
    expect(ZErrorBody.parse(await response.json()).error.code).toBe(errorCode)
  })
})
