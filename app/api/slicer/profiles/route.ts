import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/capabilities/operations'
import { listSlicerProfiles } from '@/lib/capabilities/slicer-profiles'

// GET /slicer/profiles - the PrusaSlicer presets the studio's manufacturing settings pick from
export const GET = route(operations.listSlicerProfiles, async ({ query }) => listSlicerProfiles(query))
