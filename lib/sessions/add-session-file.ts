import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { AppError } from '@/lib/api/errors'
import { tooLarge } from '@/lib/api/read-body'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { blobStore } from '@/lib/storage/blob-store'
import { configuratorNames } from '@/lib/sessions/model-inputs'
import { contentTypeFor } from '@/lib/storage/content-type'
import { pathProblem } from '@/lib/storage/file-path'

export interface AddSessionFileOptions {
  sessionId: string
  configuratorId: string
  name: string
  body: ReadableStream<Uint8Array> | null
  declaredSize: number
}

/** Stores a customer's file; the model sees it under `name` beside the configurator's files. */
export async function addSessionFile({ sessionId, configuratorId, name, body, declaredSize }: AddSessionFileOptions) {
  const problem = pathProblem([name])
  if (problem) throw new AppError('bad_request', `Invalid file name: ${problem}`)
  const configuratorFiles = await db.configuratorFile.findMany({ where: { configuratorId }, select: { path: true } })
  if (configuratorNames(configuratorFiles.map((file) => file.path)).has(name)) {
    throw new AppError('conflict', `${name} is a file of the configurator; choose another name`)
  }
  if (declaredSize > env.MAX_UPLOAD_BYTES) throw tooLarge(env.MAX_UPLOAD_BYTES)
  const blob = await blobStore.put(body, env.MAX_UPLOAD_BYTES)
  const data = { blobHash: blob.hash, size: blob.size, contentType: contentTypeFor(name) }
  // Uploading a name again replaces the content but keeps the id parameters may point at.
  return db.sessionFile.upsert({
    where: { sessionId_name: { sessionId, name } },
    create: { id: randomBytes(9).toString('base64url'), sessionId, name, ...data },
    update: data,
  })
}

export function toSessionFileEntry(file: { id: string; name: string; contentType: string }) {
  return { name: file.id, ext: path.extname(file.name).slice(1).toLowerCase(), contentType: file.contentType }
}
