import { z } from 'zod'
import { defineOperation } from '@/lib/api/operation'
import { ZUuidResponse } from '@/lib/api/schemas'
import {
  ZArchiveQuery,
  ZArchiveUpload,
  ZConfigurator,
  ZConfiguratorFile,
  ZConfiguratorParams,
  ZCreateConfigurator,
  ZPreparation,
  ZPreset,
  ZSetParameters,
  ZUpdateConfigurator,
} from '@/lib/configurators/schemas'

const tag = 'Configurators'

export const listConfigurators = defineOperation({
  id: 'listConfigurators',
  method: 'GET',
  path: '/configurators',
  summary: "The caller's configurators",
  tag,
  auth: 'user',
  response: z.array(ZConfigurator),
})

export const createConfigurator = defineOperation({
  id: 'createConfigurator',
  method: 'POST',
  path: '/configurators',
  summary: 'Create a configurator (name and mainFile required)',
  tag,
  auth: 'user',
  body: ZCreateConfigurator,
  status: 201,
  response: ZUuidResponse,
})

export const getConfigurator = defineOperation({
  id: 'getConfigurator',
  method: 'GET',
  path: '/configurators/{configuratorId}',
  summary: 'Configurator details',
  tag,
  auth: 'user',
  params: ZConfiguratorParams,
  response: ZConfigurator,
})

export const updateConfigurator = defineOperation({
  id: 'updateConfigurator',
  method: 'PUT',
  path: '/configurators/{configuratorId}',
  summary: 'Update a configurator; only the fields sent change',
  tag,
  auth: 'user',
  params: ZConfiguratorParams,
  body: ZUpdateConfigurator,
  response: ZUuidResponse,
})

export const deleteConfigurator = defineOperation({
  id: 'deleteConfigurator',
  method: 'DELETE',
  path: '/configurators/{configuratorId}',
  summary: 'Delete a configurator with its files and applications',
  tag,
  auth: 'user',
  params: ZConfiguratorParams,
  status: 204,
})

const ZFileParams = ZConfiguratorParams.extend({
  path: z.array(z.string()).describe('configurator|renderer, then {subDir}/{fileName}; may hold several segments'),
})

export const listConfiguratorFiles = defineOperation({
  id: 'listConfiguratorFiles',
  method: 'GET',
  path: '/configurators/{configuratorId}/files',
  summary: "The configurator's files",
  tag,
  auth: 'user',
  params: ZConfiguratorParams,
  response: z.array(ZConfiguratorFile),
})

export const uploadConfiguratorFile = defineOperation({
  id: 'uploadConfiguratorFile',
  method: 'PUT',
  path: '/configurators/{configuratorId}/files/{path}',
  summary:
    'Upload a file as the raw body, or copy one named by the ' +
    'service-copy-source header (configurators/{id}/files/{path}); ' +
    "answers 202 with the new version's ETag. With If-Match (the ETag GET answered), it replaces only that " +
    'version: a file changed or deleted since is 409 naming the current ETag. A path with a dot segment, a control ' +
    'character or outside configurator/ and renderer/ is 422. Once the configurator is published, this edits its draft',
  tag,
  auth: 'user',
  params: ZFileParams,
  body: 'raw',
  status: 202,
  errors: ['conflict', 'precondition_failed', 'unprocessable_entity'],
})

export const getConfiguratorFile = defineOperation({
  id: 'getConfiguratorFile',
  method: 'GET',
  path: '/configurators/{configuratorId}/files/{path}',
  summary: 'Read one file',
  tag,
  auth: 'user',
  params: ZFileParams,
  produces: 'application/octet-stream',
  errors: ['unprocessable_entity'],
})

export const deleteConfiguratorFile = defineOperation({
  id: 'deleteConfiguratorFile',
  method: 'DELETE',
  path: '/configurators/{configuratorId}/files/{path}',
  summary: 'Delete one file',
  tag,
  auth: 'user',
  params: ZFileParams,
  status: 204,
  errors: ['unprocessable_entity'],
})

export const uploadConfiguratorArchive = defineOperation({
  id: 'uploadConfiguratorArchive',
  method: 'POST',
  path: '/configurators/{configuratorId}/archives',
  summary:
    'Upload a project as a zip body: its files go under configurator/ ' +
    'with their folders (replacing those of the same path, or with ' +
    '?replace=true the whole folder), and its main file becomes the ' +
    "configurator's; 409 lists the " +
    'candidates when the main file is unclear',
  tag,
  auth: 'user',
  params: ZConfiguratorParams,
  query: ZArchiveQuery,
  body: 'raw',
  response: ZArchiveUpload,
  errors: ['conflict'],
})

export const savePreset = defineOperation({
  id: 'savePreset',
  method: 'PUT',
  path: '/configurators/{configuratorId}/presets/{name}',
  summary:
    "Save values ({key: {value}}, over the defaults) as a named preset in the model's preset file beside the main file, as its CAD system writes one (it still opens there)",
  tag,
  auth: 'user',
  params: ZConfiguratorParams.extend({ name: ZPreset.shape.name.min(1).max(200) }),
  body: ZSetParameters,
  response: ZPreset,
})

export const getPreparation = defineOperation({
  id: 'getPreparation',
  method: 'GET',
  path: '/configurators/{configuratorId}/preparation',
  summary:
    'The background preparation after the ' +
    'last change of the model: its parameters ' +
    'read and its defaults and presets built, ' +
    'so a first customer gets cached models',
  tag,
  auth: 'user',
  params: ZConfiguratorParams,
  response: ZPreparation,
})
