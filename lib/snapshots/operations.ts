import { defineOperation } from '@/lib/api/operation'
import { ZImageQuery } from '@/lib/renderers/image-query'
import { ZSessionParams } from '@/lib/sessions/schemas'
import { ZSnapshot, ZSnapshotFileQuery, ZSnapshotModelQuery, ZSnapshotParams } from '@/lib/snapshots/schemas'

const tag = 'Snapshots'

export const createSnapshot = defineOperation({
  id: 'createSnapshot',
  method: 'POST',
  path: '/configsessions/{sessionId}/snapshots',
  summary:
    'Freeze the session for an order: ' +
    'values, parameter definitions, files, ' +
    'libraries and fonts (by content hash), engine, quality settings, ' +
    "scene and the final quality's price; 409 (naming the log) when its " +
    'model does not build, 409 naming why when it is not for sale (larger than the build volume in every ' +
    "orientation, without manufacturing.allowOversize). The application's webhook gets `snapshot.created`",
  tag,
  auth: 'session',
  params: ZSessionParams,
  status: 201,
  response: ZSnapshot,
  errors: ['conflict', 'too_many_requests'],
})

export const getSnapshot = defineOperation({
  id: 'getSnapshot',
  method: 'GET',
  path: '/snapshots/{snapshotId}',
  summary: "A snapshot, for the configurator's owner, the application's server token and the customer who took it",
  tag,
  auth: 'session',
  params: ZSnapshotParams,
  response: ZSnapshot,
})

export const deleteSnapshot = defineOperation({
  id: 'deleteSnapshot',
  method: 'DELETE',
  path: '/snapshots/{snapshotId}',
  summary: "Delete a snapshot (the configurator's owner only)",
  tag,
  auth: 'user',
  params: ZSnapshotParams,
  status: 204,
})

const modelSummary =
  'as stl (binary), 3mf, glb or off, built from exactly the frozen inputs (cached when that build exists)'

export const getSnapshotModel = defineOperation({
  id: 'getSnapshotModel',
  method: 'GET',
  path: '/snapshots/{snapshotId}/model',
  summary: `The snapshot's model at preview quality ${modelSummary}; \`key\` (the snapshot's modelKey) replaces the headers`,
  tag,
  auth: 'session-or-key',
  params: ZSnapshotParams,
  query: ZSnapshotModelQuery,
  produces: 'model/stl',
  errors: ['conflict'],
})

export const getSnapshotFinalizedModel = defineOperation({
  id: 'getSnapshotFinalizedModel',
  method: 'GET',
  path: '/snapshots/{snapshotId}/finalizedmodel',
  summary: `The snapshot's model at final quality ${modelSummary}: for the shop's server token or the owner only (403 for customers and keys)`,
  tag,
  auth: 'session',
  params: ZSnapshotParams,
  query: ZSnapshotModelQuery,
  produces: 'model/stl',
  errors: ['conflict'],
})

export const getSnapshotImage = defineOperation({
  id: 'getSnapshotImage',
  method: 'GET',
  path: '/snapshots/{snapshotId}/image',
  summary:
    "A server-side image of the snapshot's preview model in its frozen scene (query as for a renderer's image); `key` is the snapshot's modelKey",
  tag,
  auth: 'session-or-key',
  params: ZSnapshotParams,
  query: ZImageQuery,
  produces: 'image/png',
  errors: ['conflict', 'too_many_requests'],
})

export const getSnapshotFile = defineOperation({
  id: 'getSnapshotFile',
  method: 'GET',
  path: '/snapshots/{snapshotId}/files/{path}',
  summary: "A shader or texture of the snapshot's frozen scene, as its image loads them",
  tag,
  auth: 'session-or-key',
  params: ZSnapshotParams,
  query: ZSnapshotFileQuery,
  produces: 'application/octet-stream',
})
