import { route } from '@/lib/endpoints/route'
import { getCapabilities } from '@/lib/capabilities/capabilities'
import * as operations from '@/lib/capabilities/operations'

// GET /capabilities - CAD engines and renderers the studio may choose from
export const GET = route(operations.getCapabilities, async () => getCapabilities())
