import * as operations from '@/lib/applications/operations'
import { listApplications } from '@/lib/applications/list-applications'
import { registerApplication } from '@/lib/applications/register-application'
import { toApplicationDto } from '@/lib/applications/to-application-dto'
import { route } from '@/lib/api/route'

// POST /configurators/{id}/applications - register an application
export const POST = route(operations.registerApplication, async ({ user, params, body }) => {
  const application = await registerApplication({ configuratorId: params.configuratorId, userId: user.id, input: body })
  return { UUID: application.id }
})

// GET /configurators/{id}/applications - its applications, secret keys left out
export const GET = route(operations.listApplications, async ({ user, params }) =>
  (await listApplications(params.configuratorId, user.id)).map((application) => {
    const { secretKey: _secretKey, ...summary } = toApplicationDto(application)
    return summary
  }),
)
