import { buildOpenApiDocument } from '@/lib/api/openapi'

// GET /openapi.json - the API description, generated from the handlers' own schemas
export function GET(): Response {
  return Response.json(buildOpenApiDocument())
}
