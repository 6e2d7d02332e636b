import { route } from '@/lib/endpoints/route'
import { findOwnedConfigurator } from '@/lib/configurators/configurators'
import * as operations from '@/lib/configurators/operations'
import { savePreset } from '@/lib/sessions/presets'

// PUT /configurators/{id}/presets/{name} - save values as a preset in the model's parameter set file
export const PUT = route(operations.savePreset, async ({ user, params, body }) =>
  savePreset(
    await findOwnedConfigurator({ configuratorId: params.configuratorId, userId: user.id }),
    params.name,
    body,
  ),
)
