import { route } from '@/lib/endpoints/route'
import { listSlicerProfiles } from '@/lib/slicing/list-profiles'
import * as operations from '@/lib/slicing/operations'

// GET /slicer/profiles - the PrusaSlicer presets the studio's manufacturing settings pick from
export const GET = route(operations.listSlicerProfiles, async ({ query }) => listSlicerProfiles(query))
