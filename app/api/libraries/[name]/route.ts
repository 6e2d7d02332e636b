import { route } from '@/lib/endpoints/route'
import { schedulePreparation } from '@/lib/sessions/preparation'
import { configuratorsUsing, removeLibrary } from '@/lib/libraries/libraries'
import * as operations from '@/lib/libraries/operations'

// DELETE /libraries/{name} - remove a library (admins)
export const DELETE = route(operations.removeLibrary, async ({ params }) => {
  await removeLibrary(params.name)
  for (const configuratorId of await configuratorsUsing(params.name)) schedulePreparation(configuratorId)
})
