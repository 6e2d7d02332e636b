import { z } from 'zod'
import { defineOperation } from '@/lib/api/operation'
import { ZApplicationParams } from '@/lib/applications/schemas'
import { ZSetWebhook, ZWebhook, ZWebhookDelivery } from '@/lib/webhooks/schemas'

const tag = 'Webhooks'

export const getWebhook = defineOperation({
  id: 'getWebhook',
  method: 'GET',
  path: '/applications/{applicationId}/webhook',
  summary: "The application's webhook URL and signing secret",
  tag,
  auth: 'user',
  params: ZApplicationParams,
  response: ZWebhook,
})

export const setWebhook = defineOperation({
  id: 'setWebhook',
  method: 'PUT',
  path: '/applications/{applicationId}/webhook',
  summary:
    'Set the webhook URL (a `whsec_` secret is made the first time); 422 for a URL that is not http(s) or points at an address not allowed',
  tag,
  auth: 'user',
  params: ZApplicationParams,
  body: ZSetWebhook,
  response: ZWebhook,
})

export const deleteWebhook = defineOperation({
  id: 'deleteWebhook',
  method: 'DELETE',
  path: '/applications/{applicationId}/webhook',
  summary: 'Remove the webhook and its secret; pending deliveries stop',
  tag,
  auth: 'user',
  params: ZApplicationParams,
  status: 204,
})

export const listWebhookDeliveries = defineOperation({
  id: 'listWebhookDeliveries',
  method: 'GET',
  path: '/applications/{applicationId}/webhook/deliveries',
  summary: 'The delivery log, newest first (the last 100): status, attempts and the last answer',
  tag,
  auth: 'user',
  params: ZApplicationParams,
  response: z.array(ZWebhookDelivery),
})
