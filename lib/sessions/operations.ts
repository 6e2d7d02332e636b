import { ZRefusedValues } from '@/lib/cad/refused-values-schema'
import { z } from 'zod'
import { defineOperation } from '@/lib/api/operation'
import {
  ZAddFileQuery,
  ZCreateSession,
  ZLog,
  ZModelQuery,
  ZObjectInfo,
  ZParameterSet,
  ZPrefetch,
  ZPrefetchAccepted,
  ZPresetParams,
  ZRestoreQuery,
  ZSession,
  ZSessionFileEntry,
  ZSessionFileParams,
  ZSessionParams,
} from '@/lib/sessions/schemas'
import { ZPreset, ZSetParameters } from '@/lib/configurators/schemas'

const tag = 'Sessions'

export const createSession = defineOperation({
  id: 'createSession',
  method: 'POST',
  path: '/configsessions',
  summary:
    'Open a session: JSON {configuratorId} ' +
    '(or configuratorUUID); or a zip from GET ' +
    '.../save with Content-Type application/zip ' +
    'and ?configuratorId= to restore one',
  tag,
  auth: 'session',
  body: 'raw',
  query: ZRestoreQuery,
  requestSchema: ZCreateSession,
  response: ZSession,
  errors: ['not_found', 'conflict', 'too_many_requests'],
})

export const getSession = defineOperation({
  id: 'getSession',
  method: 'GET',
  path: '/configsessions/{sessionId}',
  summary: 'Session details with renderingKey, modelKey and renderers',
  tag,
  auth: 'session',
  params: ZSessionParams,
  response: ZSession,
})

export const getParameters = defineOperation({
  id: 'getParameters',
  method: 'GET',
  path: '/configsessions/{sessionId}/parameters',
  summary: 'The parameter set: every parameter with its current value',
  tag,
  auth: 'session',
  params: ZSessionParams,
  response: ZParameterSet,
  errors: ['too_many_requests'],
})

export const setParameters = defineOperation({
  id: 'setParameters',
  method: 'PUT',
  path: '/configsessions/{sessionId}/parameters',
  summary: 'Set values ({key: {value}}), rebuild, answer the full parameter set of the new state',
  tag,
  auth: 'session',
  params: ZSessionParams,
  body: ZSetParameters,
  response: ZParameterSet,
  errors: ['too_many_requests'],
})

export const prefetchModels = defineOperation({
  id: 'prefetchModels',
  method: 'POST',
  path: '/configsessions/{sessionId}/prefetch',
  summary:
    'Guesses of the values the customer is about to set (a slider ' +
    'being dragged): built in the background, lowest priority, so ' +
    'that setting one finds its model cached. Stores nothing, ' +
    'replaces the previous guesses, ' +
    'never counts against build time',
  tag,
  auth: 'session',
  params: ZSessionParams,
  body: ZPrefetch,
  response: ZPrefetchAccepted,
  status: 202,
  errors: ['too_many_requests'],
})

export const listPresets = defineOperation({
  id: 'listPresets',
  method: 'GET',
  path: '/configsessions/{sessionId}/presets',
  summary:
    "The model's presets (the named parameter sets of its preset file, beside the main file): each name with the values it sets",
  tag,
  auth: 'session',
  params: ZSessionParams,
  response: z.array(ZPreset),
  errors: ['unprocessable_entity', 'too_many_requests'],
})

export const applyPreset = defineOperation({
  id: 'applyPreset',
  method: 'POST',
  path: '/configsessions/{sessionId}/presets/{name}',
  summary:
    'Apply a preset as its CAD system ' +
    'does (unnamed parameters ' +
    'back to their defaults, numbers clamped, unfit ' +
    'values ignored with a line in the log); answers ' +
    'like setting parameters; 404 for an unknown name',
  tag,
  auth: 'session',
  params: ZPresetParams,
  response: ZParameterSet,
  errors: ['unprocessable_entity', 'too_many_requests'],
})

const modelSummary = 'as stl (binary), 3mf, glb or off; `key` (the modelKey) replaces the headers'

export const getModel = defineOperation({
  id: 'getModel',
  method: 'GET',
  path: '/configsessions/{sessionId}/model',
  summary: `The model of the current state ${modelSummary}; 409 when it did not build`,
  tag,
  auth: 'session-or-key',
  params: ZSessionParams,
  query: ZModelQuery,
  produces: 'model/stl',
  errors: ['conflict', 'too_many_requests'],
})

export const getFinalizedModel = defineOperation({
  id: 'getFinalizedModel',
  method: 'GET',
  path: '/configsessions/{sessionId}/finalizedmodel',
  summary: `The model at final quality ${modelSummary}; secureModel applications need the server token`,
  tag,
  auth: 'session-or-key',
  params: ZSessionParams,
  query: ZModelQuery,
  produces: 'model/stl',
  errors: ['conflict', 'too_many_requests'],
})

export const getObjectInfo = defineOperation({
  id: 'getObjectInfo',
  method: 'GET',
  path: '/configsessions/{sessionId}/objectinfo',
  summary: 'Bounding box and volume (mm, mm³) of the current model',
  tag,
  auth: 'session',
  params: ZSessionParams,
  response: ZObjectInfo,
  errors: ['conflict', 'too_many_requests'],
})

export const getRefusedValues = defineOperation({
  id: 'getRefusedValues',
  method: 'GET',
  path: '/configsessions/{sessionId}/refused-values',
  summary:
    "Where the model refuses values at the session's values: each parameter's refused ranges and options with the designer's messages, searched in the background (an addition to the interface)",
  tag,
  auth: 'session',
  params: ZSessionParams,
  response: ZRefusedValues,
  errors: ['too_many_requests'],
})

export const getLog = defineOperation({
  id: 'getLog',
  method: 'GET',
  path: '/configsessions/{sessionId}/log',
  summary:
    "The last configuration's CAD output: echo/info " +
    'in message, errors and warnings in error, ' +
    "followed by what each renderer's last image " +
    'could not draw as asked (`renderer <id>: ...`)',
  tag,
  auth: 'session',
  params: ZSessionParams,
  response: ZLog,
  errors: ['too_many_requests'],
})

export const saveSession = defineOperation({
  id: 'saveSession',
  method: 'GET',
  path: '/configsessions/{sessionId}/save',
  summary: 'The whole session as a zip (configurator files, parameters.json, scenes, models, log.txt, session files)',
  tag,
  auth: 'session',
  params: ZSessionParams,
  produces: 'application/zip',
  errors: ['conflict', 'too_many_requests'],
})

export const listSessionFiles = defineOperation({
  id: 'listSessionFiles',
  method: 'GET',
  path: '/configsessions/{sessionId}/files',
  summary: "The session's files",
  tag,
  auth: 'session',
  params: ZSessionParams,
  response: z.array(ZSessionFileEntry),
})

export const addSessionFile = defineOperation({
  id: 'addSessionFile',
  method: 'POST',
  path: '/configsessions/{sessionId}/files',
  summary: 'Add a file (raw body, ?name=); the model sees it under that name',
  tag,
  auth: 'session',
  params: ZSessionParams,
  query: ZAddFileQuery,
  body: 'raw',
  status: 201,
  response: ZSessionFileEntry,
  errors: ['conflict'],
})

export const getSessionFile = defineOperation({
  id: 'getSessionFile',
  method: 'GET',
  path: '/configsessions/{sessionId}/files/{fileId}',
  summary: 'Download a session file',
  tag,
  auth: 'session',
  params: ZSessionFileParams,
  produces: 'application/octet-stream',
})

export const deleteSessionFile = defineOperation({
  id: 'deleteSessionFile',
  method: 'DELETE',
  path: '/configsessions/{sessionId}/files/{fileId}',
  summary: 'Delete a session file',
  tag,
  auth: 'session',
  params: ZSessionFileParams,
  status: 204,
})
