import { defineOperation } from '@/lib/api/operation'
import { ZApplicationCredentials, ZLogin, ZSessionUser, ZTokenGrant } from '@/lib/auth/schemas'

export const login = defineOperation({
  id: 'login',
  method: 'POST',
  path: '/auth/login',
  summary: 'Sign in with email and password; answers a user token',
  tag: 'Auth',
  auth: 'none',
  body: ZLogin,
  response: ZTokenGrant,
  errors: ['too_many_requests'],
})

export const logout = defineOperation({
  id: 'logout',
  method: 'POST',
  path: '/auth/logout',
  summary: 'Revoke the bearer token of this request',
  tag: 'Auth',
  auth: 'user',
  status: 204,
})

export const issueAnonymousToken = defineOperation({
  id: 'issueAnonymousToken',
  method: 'POST',
  path: '/auth/anonymous',
  summary:
    'Short-lived token for an end ' +
    "customer's browser; needs " +
    "X-API-KEY, and an Origin of the application's domain. " +
    "Sending the customer's current token (Bearer) renews " +
    'it with the same identity, which keeps its sessions',
  tag: 'Auth',
  auth: 'optional',
  response: ZTokenGrant,
  errors: ['unauthorized', 'forbidden', 'too_many_requests'],
})

export const issueServerToken = defineOperation({
  id: 'issueServerToken',
  method: 'POST',
  path: '/auth/application',
  summary: "Server token for a shop's back end, from the application's key and secret key",
  tag: 'Auth',
  auth: 'none',
  body: ZApplicationCredentials,
  response: ZTokenGrant,
})

export const signIn = defineOperation({
  id: 'signIn',
  method: 'POST',
  path: '/auth/session',
  summary:
    'Browser sign-in: sets the httpOnly session cookie that then stands for a bearer token (changes need a same-origin request)',
  tag: 'Auth',
  auth: 'none',
  body: ZLogin,
  response: ZSessionUser,
  errors: ['too_many_requests'],
})

export const getSignedInUser = defineOperation({
  id: 'getSignedInUser',
  method: 'GET',
  path: '/auth/session',
  summary: 'The signed-in user (401 when the browser is not signed in)',
  tag: 'Auth',
  auth: 'user',
  response: ZSessionUser,
})

export const signOut = defineOperation({
  id: 'signOut',
  method: 'DELETE',
  path: '/auth/session',
  summary: 'Browser sign-out: revokes the session and clears its cookie',
  tag: 'Auth',
  auth: 'none',
  status: 204,
})
