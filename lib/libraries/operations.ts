import { z } from 'zod'
import { defineOperation } from '@/lib/api/operation'
import { ZInstallLibraryQuery, ZLibrary, ZLibraryParams } from '@/lib/libraries/schemas'

const tag = 'Libraries'

export const listLibraries = defineOperation({
  id: 'listLibraries',
  method: 'GET',
  path: '/libraries',
  summary: 'The libraries installed for every configurator, with their size and content hash',
  tag,
  auth: 'user',
  response: z.array(ZLibrary),
})

export const installLibrary = defineOperation({
  id: 'installLibrary',
  method: 'POST',
  path: '/libraries',
  summary:
    'Install or replace a library from a zip body (a BOSL2 or MCAD release); every configurator can then include it by its name',
  tag,
  auth: 'admin',
  query: ZInstallLibraryQuery,
  body: 'raw',
  response: ZLibrary,
  errors: ['bad_request'],
})

export const removeLibrary = defineOperation({
  id: 'removeLibrary',
  method: 'DELETE',
  path: '/libraries/{name}',
  summary: 'Remove an installed library',
  tag,
  auth: 'admin',
  params: ZLibraryParams,
  status: 204,
})
