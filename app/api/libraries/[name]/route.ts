import { route } from '@/lib/endpoints/route'
import { removeLibrary } from '@/lib/libraries/libraries'
import * as operations from '@/lib/libraries/operations'

// DELETE /libraries/{name} - remove a library (admins)
export const DELETE = route(operations.removeLibrary, ({ params }) => removeLibrary(params.name))
