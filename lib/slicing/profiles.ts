// PrusaSlicer's print profiles: the vendor bundles it ships (one INI file per vendor, each preset
// a section `[printer:Name]`, `[print:Name]` or `[filament:Name]` that inherits from others), and
// configs a designer exports from PrusaSlicer and uploads (one flat INI, hostile input). Either
// becomes one flat config that the slicer loads.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { env } from '@/lib/env'

export type PresetKind = 'printer' | 'print' | 'filament'

/** A profile as the designer chose it: a preset of each kind from a vendor bundle, or an uploaded config. */
export type ProfileChoice =
  { vendor: string; printer: string; print: string; filament: string } | { name: string; config: string }

/** Without a choice: Prusa's MK3S with its everyday quality and Prusament PLA, automatic supports on (docs/slicing.md). */
export const DEFAULT_PROFILE = {
  vendor: 'PrusaResearch',
  printer: 'Original Prusa i3 MK3S & MK3S+',
  print: '0.20mm QUALITY @MK3',
  filament: 'Prusament PLA',
} as const

/** What Paraform sets over a bundle's presets: a quote counts the supports a model needs. */
const BUNDLE_OVERRIDES: Record<string, string> = { support_material: '1', support_material_auto: '1' }

export class ProfileError extends Error {}

/** Keys of a preset about presets (their names, what they inherit, which others they suit), not settings the slicer reads. */
const PRESET_KEYS = new Set([
  'inherits',
  'renamed_from',
  'alias',
  'compatible_printers',
  'compatible_printers_condition',
  'compatible_prints',
  'compatible_prints_condition',
  'printer_model',
  'printer_variant',
  'default_print_profile',
  'default_filament_profile',
  'default_sla_print_profile',
  'default_sla_material_profile',
])

/**
 * Keys that run programs, read the host's files or reach the network, refused in an upload unless
 * empty (PrusaSlicer's exports list them empty); the output's file name, refused as a path.
 */
const UNSAFE_KEYS = new Set([
  'post_process',
  'bed_custom_texture',
  'bed_custom_model',
  'print_host',
  'printhost_apikey',
  'printhost_cafile',
  'printhost_user',
  'printhost_password',
])

function isUnsafe(key: string, value: string): boolean {
  if (key === 'output_filename_format') return /[/\\]|\.\./.test(value)
  return value !== '' && UNSAFE_KEYS.has(key)
}

/** Keys every printer config has: a file without them is not a PrusaSlicer config. */
const REQUIRED_KEYS = ['bed_shape', 'nozzle_diameter', 'layer_height']
const MAX_CONFIG_BYTES = 1024 * 1024

type Sections = Map<string, Map<string, string>>

/** An INI file's sections (keys before the first section under ''): `key = value` lines, `#` and `;` comments. */
function parseIni(text: string, { refuseDuplicates }: { refuseDuplicates: boolean }): Sections {
  const sections: Sections = new Map([['', new Map<string, string>()]])
  let section = sections.get('')!
  text.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trim()
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(';')) return
    const header = /^\[(.+)\]$/.exec(trimmed)
    if (header) {
      section = new Map()
      sections.set(header[1]!, section)
      return
    }
    const equals = trimmed.indexOf('=')
    if (equals <= 0) throw new ProfileError(`line ${index + 1} is not \`key = value\`: ${trimmed.slice(0, 80)}`)
    const key = trimmed.slice(0, equals).trim()
    if (refuseDuplicates && section.has(key)) throw new ProfileError(`\`${key}\` is set twice (line ${index + 1})`)
    section.set(key, trimmed.slice(equals + 1).trim())
  })
  return sections
}

const bundles = new Map<string, Sections>()

/** A vendor bundle's sections, read once per process; 404-worthy ProfileError when the machine has no such bundle. */
function bundle(vendor: string): Sections {
  if (!/^[A-Za-z0-9_-]+$/.test(vendor)) throw new ProfileError(`no vendor bundle is called ${JSON.stringify(vendor)}`)
  let sections = bundles.get(vendor)
  if (!sections) {
    const file = path.join(env.PRUSA_SLICER_PROFILES, `${vendor}.ini`)
    if (!fs.existsSync(file)) throw new ProfileError(`this machine has no PrusaSlicer profiles of ${vendor}`)
    sections = parseIni(fs.readFileSync(file, 'utf8'), { refuseDuplicates: false })
    bundles.set(vendor, sections)
  }
  return sections
}

/** The vendor bundles on this machine, by file name. */
export function vendors(): string[] {
  if (!fs.existsSync(env.PRUSA_SLICER_PROFILES)) return []
  return fs
    .readdirSync(env.PRUSA_SLICER_PROFILES)
    .filter((name) => name.endsWith('.ini'))
    .map((name) => name.slice(0, -'.ini'.length))
    .sort()
}

/** The presets of a kind a designer can pick in a vendor's bundle: those whose names are not `*abstract*`. */
export function presetNames(vendor: string, kind: PresetKind): string[] {
  return [...bundle(vendor).keys()]
    .filter((section) => section.startsWith(`${kind}:`) && !section.startsWith(`${kind}:*`))
    .map((section) => section.slice(kind.length + 1))
}

/** A preset's settings: what it inherits (`a; b`, later ones over earlier), then its own. */
function resolvePreset(vendor: string, kind: PresetKind, name: string, chain: string[] = []): Map<string, string> {
  const own = bundle(vendor).get(`${kind}:${name}`)
  if (!own) throw new ProfileError(`${vendor} has no ${kind} profile ${JSON.stringify(name)}`)
  if (chain.includes(name))
    throw new ProfileError(`${vendor}'s ${kind} profile ${JSON.stringify(name)} inherits itself`)
  const settings = new Map<string, string>()
  for (const parent of (own.get('inherits') ?? '').split(';').map((parent) => parent.trim()))
    if (parent) resolvePreset(vendor, kind, parent, [...chain, name]).forEach((value, key) => settings.set(key, value))
  own.forEach((value, key) => settings.set(key, value))
  return settings
}

/** An uploaded PrusaSlicer config (File > Export > Export Config), checked: ProfileError naming what is wrong. */
export function readUploadedConfig(text: string): Map<string, string> {
  if (Buffer.byteLength(text) > MAX_CONFIG_BYTES)
    throw new ProfileError(`a PrusaSlicer config is at most ${MAX_CONFIG_BYTES / 1024} KB`)
  const sections = parseIni(text, { refuseDuplicates: true })
  if (sections.size > 1)
    throw new ProfileError(
      'this is a config bundle (it has [sections]); export a single config from PrusaSlicer instead',
    )
  const settings = sections.get('')!
  const unsafe = [...settings].find(([key, value]) => isUnsafe(key, value))?.[0]
  if (unsafe)
    throw new ProfileError(
      `\`${unsafe}\` may not be set: it runs programs, writes or reads files, or reaches the network`,
    )
  const missing = REQUIRED_KEYS.filter((key) => !settings.has(key))
  if (missing.length > 0)
    throw new ProfileError(`not a PrusaSlicer config: it does not set ${missing.map((key) => `\`${key}\``).join(', ')}`)
  return settings
}

/** A flat config with what its every use needs of it, worked out once. */
export interface SlicerConfig {
  text: string
  extruders: number
  /** The content's hash: a slice's cache key holds it. */
  hash: string
}

const bundleConfigs = new Map<string, SlicerConfig>()

/** The flat config of a choice; a bundle's presets resolved once per process. */
export function slicerConfig(choice: ProfileChoice = DEFAULT_PROFILE): SlicerConfig {
  if ('config' in choice) return described(flatten(choice))
  const key = JSON.stringify([choice.vendor, choice.printer, choice.print, choice.filament])
  let config = bundleConfigs.get(key)
  if (config === undefined) bundleConfigs.set(key, (config = described(flatten(choice))))
  return config
}

function described(text: string): SlicerConfig {
  return { text, extruders: extrudersOf(text), hash: createHash('sha256').update(text).digest('hex') }
}

/** The flat config the slicer loads for a choice: its settings as `key = value` lines. */
export function flatConfig(choice: ProfileChoice = DEFAULT_PROFILE): string {
  return slicerConfig(choice).text
}

function flatten(choice: ProfileChoice): string {
  const settings =
    'config' in choice
      ? readUploadedConfig(choice.config)
      : new Map(
          (['printer', 'print', 'filament'] as const).flatMap((kind) => [
            ...resolvePreset(choice.vendor, kind, choice[kind]),
          ]),
        )
  if (!('config' in choice)) for (const [key, value] of Object.entries(BUNDLE_OVERRIDES)) settings.set(key, value)
  for (const key of PRESET_KEYS) settings.delete(key)
  return [...settings].map(([key, value]) => `${key} = ${value}\n`).join('')
}

/** The printer's build volume in mm (x, y, z): its bed's extent and its highest print. */
export function buildVolumeOf(config: string): [number, number, number] {
  const settings = parseIni(config, { refuseDuplicates: false }).get('')!
  const corners = (settings.get('bed_shape') ?? '')
    .split(',')
    .map((corner) => corner.split('x').map(Number))
    .filter((corner) => corner.length === 2 && corner.every(Number.isFinite))
  const height = Number(settings.get('max_print_height'))
  if (corners.length < 3 || !(height > 0)) throw new ProfileError('the printer profile names no bed shape and height')
  const extent = (axis: number) =>
    Math.max(...corners.map((corner) => corner[axis]!)) - Math.min(...corners.map((corner) => corner[axis]!))
  return [extent(0), extent(1), height]
}

/** How many extruders the printer has: one per nozzle diameter. */
export function extrudersOf(config: string): number {
  const settings = parseIni(config, { refuseDuplicates: false }).get('')!
  return Math.max(1, (settings.get('nozzle_diameter') ?? '').split(',').length)
}
