import { defineOperation } from '@/lib/api/operation'
import { ZCapabilities, ZSlicerProfiles, ZSlicerProfilesQuery } from '@/lib/capabilities/schemas'

export const getCapabilities = defineOperation({
  id: 'getCapabilities',
  method: 'GET',
  path: '/capabilities',
  summary: 'The CAD engines and renderers this server offers, for cadType/cadVersion and rendererType/rendererVersion',
  tag: 'Capabilities',
  auth: 'user',
  response: ZCapabilities,
})

export const listSlicerProfiles = defineOperation({
  id: 'listSlicerProfiles',
  method: 'GET',
  path: '/slicer/profiles',
  summary:
    "The PrusaSlicer profiles a configurator's quote can slice with: the server's vendor bundles, a vendor's printers, and the print settings and filaments that suit a printer as PrusaSlicer's own lists offer them",
  tag: 'Capabilities',
  auth: 'user',
  query: ZSlicerProfilesQuery,
  response: ZSlicerProfiles,
  errors: ['not_found'],
})
