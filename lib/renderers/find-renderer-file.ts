import { AppError } from '@/lib/api/errors'
import { db } from '@/lib/db'
import { findRenderer } from '@/lib/renderers/find-renderer'
import type { LoadedSession } from '@/lib/sessions/sessions'

export interface FindRendererFileOptions {
  session: LoadedSession
  rendererId: string
  /** Checked segments relative to the renderer directory. */
  path: string
}

/** A file of the configurator's `renderer` directory, as one of the session's renderers loads it. */
export async function findRendererFile({ session, rendererId, path }: FindRendererFileOptions) {
  await findRenderer(session.id, rendererId)
  const fullPath = `renderer/${path}`
  const file = await db.configuratorFile.findUnique({ where: { configuratorId_path: { configuratorId: session.configuratorId, path: fullPath } } })
  if (!file) throw new AppError('not_found', `File ${fullPath} not found`)
  return file
}
