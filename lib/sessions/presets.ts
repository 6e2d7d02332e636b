import { z } from 'zod'
import { AppError, ValidationError, zodFields } from '@/lib/api/errors'
import { parseUntrustedJson } from '@/lib/api/untrusted-json'
import type { ParameterDefinition, ParameterValue, Values } from '@/lib/cad/engine'
import { writeConfiguratorFile } from '@/lib/configurators/configurator-files'
import { cadSystem } from '@/lib/cad/engines'
import type { Configurator } from '@/lib/generated/prisma/client'
import { type ConfiguratorContent, draftOf, findContentFile } from '@/lib/releases/release-content'
import type { ParameterSet } from '@/lib/sessions/schemas'
import { readBuildSource, readConfiguratorSource } from '@/lib/sessions/model-builds'
import { storeValues } from '@/lib/sessions/session-model'
import { validateValues } from '@/lib/sessions/parameter-values'
import type { LoadedSession } from '@/lib/sessions/sessions'
import { blobStore } from '@/lib/storage/blob-store'

// Named parameter sets in one JSON file beside the main file, where the CAD system keeps them
// (lib/cad/cad-system.ts): OpenSCAD's own (`box.scad` → `box.json`) is read and applied as its
// Customizer applies it, and written so that it still opens there.

// OpenSCAD writes every value as a string; files written by hand or other tools may hold plain JSON values.
const ZPresetFile = z.object({
  fileFormatVersion: z.string().optional(),
  parameterSets: z
    .record(z.string(), z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.number())])))
    .default({}),
})
type PresetFile = z.infer<typeof ZPresetFile>

async function readPresetFile(configurator: ConfiguratorContent): Promise<PresetFile> {
  const { presets } = cadSystem(configurator.cadType)
  const path = presets.path(configurator.mainFile)
  const file = await findContentFile(configurator, path)
  if (!file) return { parameterSets: {} }
  try {
    return ZPresetFile.parse(parseUntrustedJson((await blobStore.readBuffer(file.blobHash)).toString('utf8')))
  } catch (error) {
    const fields =
      error instanceof z.ZodError ? zodFields(error, [path]) : [{ path: [path], message: (error as Error).message }]
    throw new ValidationError(
      fields,
      `${path} is not ${presets.fileName}: ${fields.map((field) => `${field.path.join('.')}: ${field.message}`).join('; ')}`,
    )
  }
}

/** A value as text, as a warning quotes it and a stored set's value is read: numbers, booleans and vectors as OpenSCAD writes them. */
function encode(value: ParameterValue): string {
  return Array.isArray(value) ? `[${value.join(', ')}]` : String(value)
}

function parseNumber(text: string): number | null {
  const number = text.trim() === '' ? Number.NaN : Number(text)
  return Number.isFinite(number) ? number : null
}

function clamp(value: number, { min, max }: { min: number | null; max: number | null }): number {
  return Math.min(max ?? Number.POSITIVE_INFINITY, Math.max(min ?? Number.NEGATIVE_INFINITY, value))
}

type ReadValue = { value: ParameterValue; adjusted?: string } | null

function clamped(
  definition: { min: number | null; max: number | null },
  numbers: number[],
  value: ParameterValue,
): ReadValue {
  const isInRange = numbers.every((number) => clamp(number, definition) === number)
  return { value, ...(!isInRange && { adjusted: "is outside the parameter's range" }) }
}

/** A set's value read by its parameter's kind, as OpenSCAD reads it; null when it would not take it. */
function readValue(definition: ParameterDefinition, raw: string): ReadValue {
  switch (definition.kind) {
    case 'number': {
      const number = parseNumber(raw)
      return number === null ? null : clamped(definition, [number], clamp(number, definition))
    }
    case 'vector': {
      const numbers = /^\s*\[(.*)\]\s*$/s.exec(raw)?.[1]?.split(',').map(parseNumber)
      if (!numbers || numbers.length !== definition.default.length || !numbers.every((number) => number !== null))
        return null
      return clamped(
        definition,
        numbers,
        numbers.map((number) => clamp(number, definition)),
      )
    }
    case 'choice': {
      const number = parseNumber(raw)
      const option = definition.options.find(
        (candidate) => candidate.value === raw || (number !== null && candidate.value === number),
      )
      return option ? { value: option.value } : null
    }
    case 'bool':
      return raw === 'true' || raw === '1' ? { value: true } : raw === 'false' || raw === '0' ? { value: false } : null
    case 'string':
      return definition.maxLength !== null && raw.length > definition.maxLength
        ? { value: raw.slice(0, definition.maxLength), adjusted: `is longer than ${definition.maxLength} characters` }
        : { value: raw }
    case 'file':
      // A session file's id: a set written for one session means nothing in another.
      return null
  }
}

/**
 * A set applied as OpenSCAD applies it: the parameters it names take its values (numbers
 * clamped to their range, strings cut to their length), every other one its default; values of
 * the wrong kind or not among a dropdown's options keep the default, and keys that are no
 * parameter are ignored. Each such case is a warning.
 */
function applySet(definitions: ParameterDefinition[], name: string, set: PresetFile['parameterSets'][string]) {
  const values: Values = Object.fromEntries(definitions.map((definition) => [definition.key, definition.default]))
  const named: Values = {}
  const warnings: string[] = []
  const warn = (message: string) => warnings.push(`WARNING: preset ${JSON.stringify(name)}: ${message}`)
  const byKey = new Map(definitions.map((definition) => [definition.key, definition]))
  for (const [key, stored] of Object.entries(set)) {
    const definition = byKey.get(key)
    const raw = typeof stored === 'string' ? stored : encode(stored)
    const read = definition ? readValue(definition, raw) : null
    if (!definition) warn(`${key} is not a parameter of this model; ignored`)
    else if (!read)
      warn(
        `${key} = ${JSON.stringify(raw)} does not fit the parameter; its default ${encode(definition.default)} is used`,
      )
    else {
      if (read.adjusted) warn(`${key} = ${JSON.stringify(raw)} ${read.adjusted}; ${encode(read.value)} is used`)
      values[key] = named[key] = read.value
    }
  }
  return { values, named, warnings }
}

/** Each preset of the configurator's model, applied to `definitions`. */
export async function presetsOf(configurator: ConfiguratorContent, definitions: ParameterDefinition[]) {
  const file = await readPresetFile(configurator)
  return Object.entries(file.parameterSets).map(([name, set]) => ({ name, ...applySet(definitions, name, set) }))
}

/** The model's presets: each set's name and the values it gives the parameters it names. */
export async function listPresets(session: LoadedSession): Promise<{ name: string; values: Values }[]> {
  const { definitions } = await readBuildSource(session)
  return (await presetsOf(session.configurator, definitions)).map(({ name, named }) => ({ name, values: named }))
}

/** Applies the named preset to the session; answers like setting parameters. 404 when the file has no such set. */
export async function applyPreset(session: LoadedSession, name: string): Promise<ParameterSet> {
  const [source, file] = await Promise.all([readBuildSource(session), readPresetFile(session.configurator)])
  const set = Object.hasOwn(file.parameterSets, name) ? file.parameterSets[name] : undefined
  if (!set) throw new AppError('not_found', `The model has no preset ${JSON.stringify(name)}`)
  const { values, warnings } = applySet(source.definitions, name, set)
  return storeValues(session, source, values, warnings.join('\n'))
}

/**
 * Saves values (a set-parameters body, over the defaults) as the named preset in the model's
 * preset file, keeping the file's other sets.
 */
export async function savePreset(configurator: Configurator, name: string, body: Record<string, { value: unknown }>) {
  const definitions = (await readConfiguratorSource(configurator)).definitions.filter(
    (definition) => definition.kind !== 'file',
  )
  const given = validateValues(definitions, body, new Set())
  const file = await readPresetFile(draftOf(configurator))
  const { presets } = cadSystem(configurator.cadType)
  const values = Object.fromEntries(
    definitions.map((definition) => [definition.key, given[definition.key] ?? definition.default]),
  )
  const saved: PresetFile = {
    fileFormatVersion: file.fileFormatVersion ?? '1',
    parameterSets: {
      ...file.parameterSets,
      [name]: Object.fromEntries(Object.entries(values).map(([key, value]) => [key, presets.encode(value)])),
    },
  }
  await writeConfiguratorFile(
    configurator.id,
    presets.path(configurator.mainFile),
    new TextEncoder().encode(`${JSON.stringify(saved, null, 4)}\n`),
  )
  return { name, values }
}
