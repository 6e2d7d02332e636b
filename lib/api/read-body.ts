import { AppError } from '@/lib/api/errors'

/** Reads a request body into memory, refusing (413) as soon as it passes `limit` bytes. */
export async function readLimitedBytes(request: Request, limit: number): Promise<Buffer> {
  const declared = Number(request.headers.get('content-length') ?? 0)
  if (declared > limit) throw tooLarge(limit)
  if (!request.body) return Buffer.alloc(0)
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of request.body) {
    size += chunk.byteLength
    if (size > limit) throw tooLarge(limit)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

export async function readLimitedText(request: Request, limit: number): Promise<string> {
  return (await readLimitedBytes(request, limit)).toString('utf8')
}

export function tooLarge(limit: number): AppError {
  return new AppError('payload_too_large', `Request body is larger than the limit of ${limit} bytes`)
}
