import { z } from 'zod'
import { defineOperation } from '@/lib/api/operation'
import { ZConfiguratorParams } from '@/lib/configurators/schemas'
import { ZCompareQuery, ZPublishRelease, ZRelease, ZReleaseComparison, ZReleaseParams } from '@/lib/publishing/schemas'

const tag = 'Releases'

export const listReleases = defineOperation({
  id: 'listReleases',
  method: 'GET',
  path: '/configurators/{configuratorId}/releases',
  summary: "The configurator's releases, newest first (an addition to the interface)",
  tag,
  auth: 'user',
  params: ZConfiguratorParams,
  response: z.array(ZRelease),
})

export const publishRelease = defineOperation({
  id: 'publishRelease',
  method: 'POST',
  path: '/configurators/{configuratorId}/releases',
  summary:
    'Publish the prepared draft as the ' +
    'next release, which new sessions ' +
    'get from now on (sessions keep theirs). 409 while the draft ' +
    'is being prepared or when it changed since the version named; 422 ' +
    'naming override when something of the preparation did not build',
  tag,
  auth: 'user',
  params: ZConfiguratorParams,
  body: ZPublishRelease,
  status: 201,
  response: ZRelease,
  errors: ['conflict'],
})

export const compareReleases = defineOperation({
  id: 'compareReleases',
  method: 'GET',
  path: '/configurators/{configuratorId}/releases/compare',
  summary:
    "What changed between two releases: files (a text diff), parameters added, removed or changed, and the defaults' volume and bounding box",
  tag,
  auth: 'user',
  params: ZConfiguratorParams,
  query: ZCompareQuery,
  response: ZReleaseComparison,
})

export const getRelease = defineOperation({
  id: 'getRelease',
  method: 'GET',
  path: '/configurators/{configuratorId}/releases/{number}',
  summary: 'One release',
  tag,
  auth: 'user',
  params: ZReleaseParams,
  response: ZRelease,
})

export const rollBackRelease = defineOperation({
  id: 'rollBackRelease',
  method: 'POST',
  path: '/configurators/{configuratorId}/releases/{number}/rollback',
  summary: 'Make this release the one new sessions get, in one step (the draft is left as it is)',
  tag,
  auth: 'user',
  params: ZReleaseParams,
  response: ZRelease,
})
