import { z } from 'zod'
import { defineOperation } from '@/lib/api/operation'
import { ZFont, ZFontsQuery } from '@/lib/fonts/schemas'

export const listFonts = defineOperation({
  id: 'listFonts',
  method: 'GET',
  path: '/fonts',
  summary: "The fonts text() can use: the build machines' own, and those uploaded into a configurator",
  tag: 'Fonts',
  auth: 'user',
  query: ZFontsQuery,
  response: z.array(ZFont),
  errors: ['not_found'],
})
