import { timingSafeEqual } from 'node:crypto'
import { AppError } from '@/lib/api/errors'
import { db } from '@/lib/db'

function isSame(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/** The application whose key is `key` (and, when given, whose secret is `secretKey`). */
export async function findApplicationByKey(key: string, secretKey?: string) {
  const application = await db.application.findUnique({ where: { key } })
  const isValid =
    application !== null && isSame(application.key, key) && (secretKey === undefined || isSame(application.secretKey, secretKey))
  if (!isValid) throw new AppError('unauthorized', secretKey === undefined ? 'Unknown X-API-KEY' : 'Key or secret key is wrong')
  return application
}
