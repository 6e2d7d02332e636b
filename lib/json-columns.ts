import { z } from 'zod'
import type { Prisma } from '@/lib/generated/prisma/client'

// Every JSON column is read through its zod schema, and written through the same one, so what is
// written always reads back. A stored value that does not parse (written by an older version, or
// by hand) is an error naming its row: a fault of the server's, never a silent cast.

/** Where a JSON value is stored: its table, its row's id (or key) and its column. */
export interface Column {
  table: string
  id: string
  column: string
}

/** The stored value as its schema reads it; throws naming the row when it does not parse. */
export function parseColumn<S extends z.ZodType>(
  schema: S,
  value: unknown,
  { table, id, column }: Column,
): z.output<S> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const where = `${table} ${id}, column ${column}`
  throw new Error(`${where}: its stored value does not parse: ${z.prettifyError(result.error)}`, {
    cause: result.error,
  })
}

/** `value` for a JSON column, checked by the schema its reads parse with. */
export function toJsonInput<S extends z.ZodType>(schema: S, value: z.input<S>): Prisma.InputJsonValue {
  schema.parse(value)
  // A generic schema's value cannot be shown to be Prisma's JSON type: the parse above checked it.
  return value as Prisma.InputJsonValue
}
