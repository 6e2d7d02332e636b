import { db } from '@/lib/db'
import type { Configurator } from '@/lib/generated/prisma/client'
import { type RememberedRows, rememberedRows } from '@/lib/remembered-rows'

// What the builds of a configurator's sessions are made of (its row, its files and each
// session's, the installed libraries) changes only when a designer, a customer's upload or an
// admin changes it, while every request of every session reads it: remembered, and forgotten
// on every instance at each such change (lib/configurators/model-changes.ts; a change reaches
// another instance's customers within a notification's delay).

export const MODEL_CHANNEL = 'paraform_models_changed'
const LIMITS = { entries: 10_000, maxAgeMs: 60_000 }

/** Remembered rows of a kind that a model change forgets: keyed by the ids of what they are read for, joined by `:`. */
export function modelRows<T>(kind: string): RememberedRows<T> {
  return rememberedRows<T>(kind, MODEL_CHANNEL, LIMITS)
}

const configurators = modelRows<Configurator>('configurators')

export function findConfiguratorRow(id: string): Promise<Configurator | null> {
  return configurators.get(id, () => db.configurator.findUnique({ where: { id } }))
}

/** Forgets the model rows read for `id` (a configurator's or a session's), here and on every instance; all of them when empty. */
export function forgetModelRows(id: string): Promise<void> {
  return configurators.forget(id)
}
