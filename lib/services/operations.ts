import { z } from 'zod'
import { defineOperation } from '@/lib/api/operation'

const ZServiceParams = z.object({ service: z.string(), path: z.array(z.string()).optional() })
const summary =
  'Forwarded to the extra service named {service} (SERVICES setting): method, raw body, query and further path pass on; ' +
  'its status, content headers and body come back unchanged, with `X-Content-Type-Options: nosniff` and a sandboxing ' +
  'Content-Security-Policy added; a `Location` under the service ' +
  'base URL is mapped to /api/services/{service}/..., any other is ' +
  'dropped. The built-in `files` service stores a session file: PUT /services/files/upload/configsessions/{id}/{name} answers 202'

export const callServiceGet = defineOperation({
  id: 'callServiceGet',
  method: 'GET',
  path: '/services/{service}/{path}',
  summary,
  tag: 'Services',
  auth: 'session',
  params: ZServiceParams,
  body: 'raw',
  produces: '*/*',
  // A hostile path after the service name is 422; the built-in files service uploads with PUT or
  // POST only (405) and refuses a configurator file's name (409).
  errors: ['method_not_allowed', 'conflict', 'unprocessable_entity'],
})
const uploadErrors = ['conflict', 'unprocessable_entity'] as const
export const callServicePost = {
  ...callServiceGet,
  id: 'callServicePost',
  method: 'POST',
  errors: uploadErrors,
} as const
export const callServicePut = { ...callServiceGet, id: 'callServicePut', method: 'PUT', errors: uploadErrors } as const
