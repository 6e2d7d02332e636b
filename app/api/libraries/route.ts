import { readLimitedBytes } from '@/lib/api/read-body'
import { route } from '@/lib/endpoints/route'
import { env } from '@/lib/env'
import { installLibraryZip, listLibraries, toLibraryEntry } from '@/lib/libraries/libraries'
import * as operations from '@/lib/libraries/operations'

// GET /libraries - the installed libraries
export const GET = route(operations.listLibraries, async () => (await listLibraries()).map(toLibraryEntry))

// POST /libraries - install or replace a library from a zip (admins)
export const POST = route(operations.installLibrary, async ({ request, query }) =>
  toLibraryEntry(await installLibraryZip(await readLimitedBytes(request, env.MAX_UPLOAD_BYTES), query.name)),
)
