import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { AppError } from '@/lib/api/errors'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { configuratorNames } from '@/lib/sessions/model-inputs'
import { blobStore } from '@/lib/storage/blob-store'
import { contentTypeFor } from '@/lib/configurators/content-type'
import { pathProblem } from '@/lib/storage/file-path'
import { changeModel } from '@/lib/configurators/model-changes'
import { type ConfiguratorContent, findContentFiles } from '@/lib/releases/release-content'

export interface AddSessionFileOptions {
  sessionId: string
  /** The release (or draft) the session builds, whose names the customer's files may not take. */
  configurator: ConfiguratorContent
  name: string
  body: ReadableStream<Uint8Array> | null
  declaredSize: number
}

/** Stores a customer's file; the model sees it under `name` beside the configurator's files. */
export async function addSessionFile({ sessionId, configurator, name, body, declaredSize }: AddSessionFileOptions) {
  const problem = pathProblem([name])
  if (problem) throw new AppError('bad_request', `Invalid file name: ${problem}`)
  const configuratorFiles = await findContentFiles(configurator)
  if (configuratorNames(configuratorFiles.map((file) => file.path)).has(name)) {
    throw new AppError('conflict', `${name} is a file of the configurator; choose another name`)
  }
  // Checked before and while streaming, so an upload over the quota stops early; checked again
  // under the session's row lock, since concurrent uploads may have taken the room meanwhile.
  const others = await otherFileSizes(db, sessionId, name)
  checkSessionFileQuota([...others, declaredSize])
  const room = Math.min(env.SESSION_FILE_MAX_BYTES, env.SESSION_FILES_MAX_BYTES - sum(others))
  const blob = await blobStore.stage(body, room).catch((error: unknown) => {
    // The store's 413 names only a byte count: name the quota that was passed instead.
    if (error instanceof AppError && error.code === 'payload_too_large') checkSessionFileQuota([...others, room + 1])
    throw error
  })
  try {
    return await changeModel({ kind: 'session', subject: sessionId }, async (tx) => {
      await tx.$queryRaw`SELECT id FROM "ConfigSession" WHERE id = ${sessionId}::uuid FOR UPDATE`
      checkSessionFileQuota([...(await otherFileSizes(tx, sessionId, name)), blob.size])
      await blob.commit()
      const data = { blobHash: blob.hash, size: blob.size, contentType: contentTypeFor(name) }
      // Uploading a name again replaces the content but keeps the id parameters may point at.
      return tx.sessionFile.upsert({
        where: { sessionId_name: { sessionId, name } },
        create: { id: randomBytes(9).toString('base64url'), sessionId, name, ...data },
        update: data,
      })
    })
  } finally {
    await blob.discard()
  }
}

async function otherFileSizes(
  client: Pick<typeof db, 'sessionFile'>,
  sessionId: string,
  name: string,
): Promise<number[]> {
  const files = await client.sessionFile.findMany({ where: { sessionId, name: { not: name } }, select: { size: true } })
  return files.map((file) => file.size)
}

const sum = (sizes: number[]) => sizes.reduce((total, size) => total + size, 0)

/** Refuses (413, naming the limit) a session whose files would have these sizes. */
export function checkSessionFileQuota(sizes: number[]): void {
  const { SESSION_FILE_MAX_BYTES: fileMax, SESSION_FILES_MAX_BYTES: totalMax, SESSION_FILES_MAX_COUNT: countMax } = env
  if (sizes.length > countMax)
    throw new AppError('payload_too_large', `A session holds at most ${countMax} files (SESSION_FILES_MAX_COUNT)`)
  if (sizes.some((size) => size > fileMax))
    throw new AppError('payload_too_large', `A session file may have at most ${fileMax} bytes (SESSION_FILE_MAX_BYTES)`)
  if (sum(sizes) > totalMax)
    throw new AppError(
      'payload_too_large',
      `A session's files may have at most ${totalMax} bytes together (SESSION_FILES_MAX_BYTES)`,
    )
}

export function toSessionFileEntry(file: { id: string; name: string; contentType: string }) {
  return { name: file.id, ext: path.extname(file.name).slice(1).toLowerCase(), contentType: file.contentType }
}

export async function listSessionFiles({ sessionId }: { sessionId: string }) {
  const files = await db.sessionFile.findMany({ where: { sessionId }, orderBy: { createdAt: 'asc' } })
  return files.map(toSessionFileEntry)
}

export interface SessionFileOptions {
  sessionId: string
  fileId: string
}

export async function findSessionFile({ sessionId, fileId }: SessionFileOptions) {
  const file = await db.sessionFile.findFirst({ where: { id: fileId, sessionId } })
  if (!file) throw new AppError('not_found', `File ${fileId} not found in this session`)
  return file
}

export async function deleteSessionFile(options: SessionFileOptions): Promise<void> {
  const { id } = await findSessionFile(options)
  await changeModel({ kind: 'session', subject: options.sessionId }, (tx) => tx.sessionFile.delete({ where: { id } }))
}
