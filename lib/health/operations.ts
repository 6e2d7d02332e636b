import { defineOperation } from '@/lib/api/operation'
import { ZHealth } from '@/lib/health/schemas'

export const getHealth = defineOperation({
  id: 'getHealth',
  method: 'GET',
  path: '/health',
  summary:
    'Whether this instance can reach its database and storage, and the build queue and workers it sees; 503 when the database or storage cannot be reached',
  tag: 'Health',
  auth: 'none',
  response: ZHealth,
})
