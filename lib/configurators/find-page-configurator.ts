import { z } from 'zod'
import { notFound } from 'next/navigation'
import { AppError } from '@/lib/api/errors'
import { findOwnedConfigurator } from '@/lib/configurators/find-owned-configurator'

/** For pages: the user's configurator, or Next's 404 page (someone else's looks exactly like a missing one). */
export async function findPageConfigurator(configuratorId: string, userId: string) {
  if (!z.uuid().safeParse(configuratorId).success) notFound()
  try {
    return await findOwnedConfigurator(configuratorId, userId)
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') notFound()
    throw error
  }
}
