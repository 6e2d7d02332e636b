import type { IncomingHttpHeaders } from 'node:http'

const SCENE_PATH = /^\/api\/configsessions\/[^/]+\/renderers\/[^/]+\/scene\/?$/i

/**
 * The interface updates a scene with a GET carrying a JSON body. Next.js drops GET bodies,
 * so the server hands such a request to the PUT handler instead.
 */
export function isSceneUpdateByGet(
  method: string | undefined,
  rawUrl: string | undefined,
  headers: IncomingHttpHeaders,
): boolean {
  if (method !== 'GET' || !rawUrl) return false
  const hasBody = Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined
  return hasBody && SCENE_PATH.test(rawUrl.split(/[?#]/, 1)[0] ?? '')
}
