import { z } from 'zod'

export const ZFont = z.object({
  family: z.string().describe('as text(font = "Family:style=Style") names it'),
  style: z.string(),
  source: z
    .enum(['server', 'configurator'])
    .describe("server: the build machines' fonts; configurator: a TTF/OTF file the designer uploaded"),
  file: z.string().describe("the file's name, or its path in the configurator"),
})

export const ZFontsQuery = z.object({
  configuratorId: z.uuid().optional().describe("also the fonts uploaded into this configurator (the caller's own)"),
})
