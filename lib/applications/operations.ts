import { z } from 'zod'
import { defineOperation } from '@/lib/api/operation'
import { ZUuidResponse } from '@/lib/api/schemas'
import { ZApplication, ZApplicationParams, ZApplicationSummary, ZRegisterApplication } from '@/lib/applications/schemas'
import { ZConfiguratorParams } from '@/lib/configurators/schemas'

const tag = 'Applications'

export const registerApplication = defineOperation({
  id: 'registerApplication',
  method: 'POST',
  path: '/configurators/{configuratorId}/applications',
  summary: 'Register an application for a configurator (name and domain required)',
  tag,
  auth: 'user',
  params: ZConfiguratorParams,
  body: ZRegisterApplication,
  response: ZUuidResponse,
})

export const listApplications = defineOperation({
  id: 'listApplications',
  method: 'GET',
  path: '/configurators/{configuratorId}/applications',
  summary: "The configurator's applications (without secret keys)",
  tag,
  auth: 'user',
  params: ZConfiguratorParams,
  response: z.array(ZApplicationSummary),
})

export const getApplication = defineOperation({
  id: 'getApplication',
  method: 'GET',
  path: '/applications/{applicationId}',
  summary: 'Application details, including key and secretKey',
  tag,
  auth: 'user',
  params: ZApplicationParams,
  response: ZApplication,
})

export const deleteApplication = defineOperation({
  id: 'deleteApplication',
  method: 'DELETE',
  path: '/applications/{applicationId}',
  summary: 'Delete an application; tokens issued with its keys stop working',
  tag,
  auth: 'user',
  params: ZApplicationParams,
  status: 204,
})
