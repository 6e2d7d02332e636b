import { route } from '@/lib/endpoints/route'
import { listFonts } from '@/lib/fonts/fonts'
import * as operations from '@/lib/fonts/operations'

// GET /fonts - the fonts text() can use
export const GET = route(operations.listFonts, ({ user, query }) =>
  listFonts({ configuratorId: query.configuratorId, userId: user.id }),
)
