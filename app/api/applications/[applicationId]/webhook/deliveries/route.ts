import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/webhooks/operations'
import { listDeliveries } from '@/lib/webhooks/webhooks'

// GET /applications/{id}/webhook/deliveries - the delivery log
export const GET = route(operations.listWebhookDeliveries, ({ user, params }) =>
  listDeliveries({ applicationId: params.applicationId, userId: user.id }),
)
