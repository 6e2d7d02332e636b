import { z } from 'zod'

export const ZDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  .describe('YYYY-MM-DD HH:MM:SS in the server time zone')

export const ZUuidResponse = z.object({ UUID: z.uuid() })
