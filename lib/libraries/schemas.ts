import { z } from 'zod'
import { LIBRARY_USES } from '@/lib/cad/engines'
import { ZDateTime } from '@/lib/api/schemas'

export const ZLibrary = z.object({
  name: z.string().describe(`the folder models use it by: ${LIBRARY_USES}`),
  contentHash: z.string().describe('sha256 over its files; part of every build key'),
  sizeBytes: z.number().int(),
  fileCount: z.number().int(),
  updatedAt: ZDateTime,
})

export const ZLibraryParams = z.object({ name: z.string().min(1).max(64) })
export const ZInstallLibraryQuery = z.object({
  name: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe("default: the archive's single top folder, less a -master or version suffix"),
})
