import { listApplications, registerApplication, toApplicationDto } from '@/lib/applications/applications'
import * as operations from '@/lib/applications/operations'
import { route } from '@/lib/endpoints/route'

// POST /configurators/{id}/applications - register an application
export const POST = route(operations.registerApplication, async ({ user, params, body }) => {
  const application = await registerApplication({ configuratorId: params.configuratorId, userId: user.id, input: body })
  return { UUID: application.id }
})

// GET /configurators/{id}/applications - its applications, secret keys left out
export const GET = route(operations.listApplications, async ({ user, params }) =>
  (await listApplications({ configuratorId: params.configuratorId, userId: user.id })).map((application) => {
    const { secretKey: _secretKey, ...summary } = toApplicationDto(application)
    return summary
  }),
)
