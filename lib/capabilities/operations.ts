import { defineOperation } from '@/lib/api/operation'
import { ZCapabilities } from '@/lib/capabilities/schemas'

export const getCapabilities = defineOperation({
  id: 'getCapabilities',
  method: 'GET',
  path: '/capabilities',
  summary: 'The CAD engines and renderers this server offers, for cadType/cadVersion and rendererType/rendererVersion',
  tag: 'Capabilities',
  auth: 'user',
  response: ZCapabilities,
})
