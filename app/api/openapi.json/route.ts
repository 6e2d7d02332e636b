import { buildOpenApiDocument } from '@/lib/endpoints/openapi'

// GET /openapi.json - the API description, generated from the handlers' own schemas
export function GET(): Response {
  return Response.json(buildOpenApiDocument())
}
