import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/webhooks/operations'
import { deleteWebhook, getWebhook, setWebhook } from '@/lib/webhooks/webhooks'

// GET /applications/{id}/webhook
export const GET = route(operations.getWebhook, ({ user, params }) =>
  getWebhook({ applicationId: params.applicationId, userId: user.id }),
)

// PUT /applications/{id}/webhook - {url}
export const PUT = route(operations.setWebhook, ({ request, user, params, body }) =>
  setWebhook({
    applicationId: params.applicationId,
    userId: user.id,
    url: body.url,
    requestHost: request.headers.get('host'),
  }),
)

// DELETE /applications/{id}/webhook
export const DELETE = route(operations.deleteWebhook, ({ user, params }) =>
  deleteWebhook({ applicationId: params.applicationId, userId: user.id }),
)
