import { errorResponse } from '@/lib/api/errors'

// Any /api path without a route of its own answers a JSON 404 instead of Next's HTML page.
function notFound(request: Request): Response {
  return errorResponse('not_found', `No API route for ${request.method} ${new URL(request.url).pathname}`)
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE }
