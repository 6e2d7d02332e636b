import { route } from '@/lib/endpoints/route'
import { getHealth } from '@/lib/health/health'
import * as operations from '@/lib/health/operations'

// GET /health - database, storage, build queue and workers, for load balancers and monitoring
export const GET = route(operations.getHealth, async () => getHealth())
