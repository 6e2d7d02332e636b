import * as applications from '@/lib/applications/operations'
import * as auth from '@/lib/auth/operations'
import * as backup from '@/lib/backup/operations'
import * as capabilities from '@/lib/capabilities/operations'
import * as configurators from '@/lib/configurators/operations'
import * as fonts from '@/lib/fonts/operations'
import * as health from '@/lib/health/operations'
import * as libraries from '@/lib/libraries/operations'
import * as releases from '@/lib/publishing/operations'
import * as renderers from '@/lib/renderers/operations'
import * as services from '@/lib/services/operations'
import * as sessions from '@/lib/sessions/operations'
import * as snapshots from '@/lib/snapshots/operations'
import * as users from '@/lib/users/operations'
import * as webhooks from '@/lib/webhooks/operations'

/** Every operation by its id (each module exports it under its id), in the OpenAPI document's order. */
export const operations = {
  ...auth,
  ...users,
  ...configurators,
  ...releases,
  ...applications,
  ...webhooks,
  ...sessions,
  ...snapshots,
  ...renderers,
  ...services,
  ...capabilities,
  ...health,
  ...libraries,
  ...fonts,
  ...backup,
}

export type Operations = typeof operations
export type OperationId = keyof Operations
