// PrusaSlicer's print profiles: the vendor bundles it ships (one INI file per vendor, each preset
// a section `[printer:Name]`, `[print:Name]` or `[filament:Name]` that inherits from others), and
// configs a designer exports from PrusaSlicer and uploads (one flat INI, hostile input). Either
// becomes one flat config that the slicer loads.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { env } from '@/lib/env'
import { holds, type Lookup } from '@/lib/slicing/compatibility'

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

/** What is wrong with a profile; `field` names the preset of a choice it is about. */
export class ProfileError extends Error {
  constructor(
    message: string,
    readonly field?: 'vendor' | PresetKind,
  ) {
    super(message)
  }
}

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
  if (!/^[A-Za-z0-9_-]+$/.test(vendor))
    throw new ProfileError(`no vendor bundle is called ${JSON.stringify(vendor)}`, 'vendor')
  let sections = bundles.get(vendor)
  if (!sections) {
    const file = path.join(env.PRUSA_SLICER_PROFILES, `${vendor}.ini`)
    if (!fs.existsSync(file)) throw new ProfileError(`this machine has no PrusaSlicer profiles of ${vendor}`, 'vendor')
    sections = parseIni(fs.readFileSync(file, 'utf8'), { refuseDuplicates: false })
    bundles.set(vendor, sections)
  }
  return sections
}

/** The vendor bundles on this machine: file name and the name the vendor gives itself. */
export function vendors(): { id: string; name: string }[] {
  if (!fs.existsSync(env.PRUSA_SLICER_PROFILES)) return []
  return fs
    .readdirSync(env.PRUSA_SLICER_PROFILES)
    .filter((file) => file.endsWith('.ini'))
    .map((file) => file.slice(0, -'.ini'.length))
    .sort()
    .map((id) => ({ id, name: bundle(id).get('vendor')?.get('name') ?? id }))
}

/** The presets of a kind in a vendor's bundle a designer can pick: not `*abstract*`, and printers that print filament (not resin). */
function presetNames(vendor: string, kind: PresetKind): string[] {
  return [...bundle(vendor).keys()]
    .filter((section) => section.startsWith(`${kind}:`) && !section.startsWith(`${kind}:*`))
    .map((section) => section.slice(kind.length + 1))
    .filter((name) => kind !== 'printer' || resolvePreset(vendor, kind, name).get('printer_technology') !== 'SLA')
}

const resolved = new Map<string, Map<string, string>>()

/** A preset's settings: what it inherits (`a; b`, later ones over earlier), then its own; worked out once per process. */
function resolvePreset(vendor: string, kind: PresetKind, name: string, chain: string[] = []): Map<string, string> {
  const key = JSON.stringify([vendor, kind, name])
  const known = resolved.get(key)
  if (known) return known
  const own = bundle(vendor).get(`${kind}:${name}`)
  if (!own) throw new ProfileError(`${vendor} has no ${kind} profile ${JSON.stringify(name)}`, kind)
  if (chain.includes(name))
    throw new ProfileError(`${vendor}'s ${kind} profile ${JSON.stringify(name)} inherits itself`, kind)
  const settings = new Map<string, string>()
  for (const parent of (own.get('inherits') ?? '').split(';').map((parent) => parent.trim()))
    if (parent) resolvePreset(vendor, kind, parent, [...chain, name]).forEach((value, key) => settings.set(key, value))
  own.forEach((value, key) => settings.set(key, value))
  resolved.set(key, settings)
  return settings
}

/** PrusaSlicer's own defaults of the settings Paraform reads, for a preset that leaves them out. */
const SLICER_DEFAULTS: Record<string, string> = {
  bed_shape: '0x0,200x0,200x200,0x200',
  max_print_height: '200',
  nozzle_diameter: '0.4',
  layer_height: '0.3',
  printer_model: '',
  printer_notes: '',
  single_extruder_multi_material: '0',
}

function settingOf(settings: Map<string, string>, name: string): string | undefined {
  return settings.get(name) ?? SLICER_DEFAULTS[name]
}

function lookupIn(settings: Map<string, string>): Lookup {
  return (name) => (name === 'num_extruders' ? String(extrudersIn(settings)) : settingOf(settings, name))
}

/**
 * Whether a print or filament preset suits the printer (and a filament the print) as PrusaSlicer
 * decides it: the names it lists, else its condition; a condition it cannot read suits nothing.
 */
function suits(preset: Map<string, string>, target: 'printer' | 'print', name: string, settings: Map<string, string>) {
  const listed = (preset.get(`compatible_${target}s`) ?? '').match(/"(?:[^"\\]|\\.)*"|[^;"]+/g) ?? []
  const names = listed.map((entry) => entry.trim().replace(/^"|"$/g, '')).filter(Boolean)
  if (names.length > 0) return names.includes(name)
  try {
    return holds(preset.get(`compatible_${target}s_condition`) ?? '', lookupIn(settings))
  } catch {
    return false
  }
}

/** The printer's own default of a kind (`default_print_profile`) when it is among those offered, else the first offered. */
export function suggested(
  vendor: string,
  printer: string,
  kind: 'print' | 'filament',
  offered: string[],
): string | null {
  const preset = (resolvePreset(vendor, 'printer', printer).get(`default_${kind}_profile`) ?? '')
    .split(';')[0]!
    .trim()
    .replace(/^"|"$/g, '')
  return offered.includes(preset) ? preset : (offered[0] ?? null)
}

/** A printer of a vendor's bundle as the studio offers it. */
export interface PrinterPreset {
  name: string
  buildVolumeMm: [number, number, number]
  extruders: number
}

/** The filament printers of a vendor's bundle. */
export function printers(vendor: string): PrinterPreset[] {
  return presetNames(vendor, 'printer').map((name) => {
    const settings = resolvePreset(vendor, 'printer', name)
    return { name, buildVolumeMm: volumeOf(settings), extruders: extrudersIn(settings) }
  })
}

/** The print settings of a vendor's bundle that suit its printer. */
export function printsFor(vendor: string, printer: string): string[] {
  const printerSettings = resolvePreset(vendor, 'printer', printer)
  return presetNames(vendor, 'print').filter((print) =>
    suits(resolvePreset(vendor, 'print', print), 'printer', printer, printerSettings),
  )
}

/** The filaments of a vendor's bundle that suit its printer and print settings. */
export function filamentsFor(vendor: string, printer: string, print: string): string[] {
  const printerSettings = resolvePreset(vendor, 'printer', printer)
  const printSettings = resolvePreset(vendor, 'print', print)
  return presetNames(vendor, 'filament').filter((filament) => {
    const settings = resolvePreset(vendor, 'filament', filament)
    return suits(settings, 'printer', printer, printerSettings) && suits(settings, 'print', print, printSettings)
  })
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
  /** The printer's bed and highest print, mm: the print report's build volume too. */
  buildVolumeMm: Volume
  /** The content's hash: a slice's cache key holds it. */
  hash: string
}

type Volume = [number, number, number]

/** By choice: an upload's by its content's hash. */
const configs = new Map<string, SlicerConfig>()

/**
 * The flat config of a choice, its printer's bed replaced by a build volume the designer sets
 * (the print report's and the slice's volume then agree); worked out once per process.
 */
export function slicerConfig(choice: ProfileChoice = DEFAULT_PROFILE, buildVolumeMm?: Volume): SlicerConfig {
  const key = JSON.stringify([
    'config' in choice ? sha256(choice.config) : [choice.vendor, choice.printer, choice.print, choice.filament],
    buildVolumeMm,
  ])
  let config = configs.get(key)
  if (config === undefined) configs.set(key, (config = described(flatten(choice, buildVolumeMm))))
  return config
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

function described(settings: Map<string, string>): SlicerConfig {
  const text = [...settings].map(([key, value]) => `${key} = ${value}\n`).join('')
  return {
    text,
    extruders: extrudersIn(settings),
    buildVolumeMm: volumeOf(settings),
    hash: sha256(text),
  }
}

/** The flat config the slicer loads for a choice: its settings as `key = value` lines. */
export function flatConfig(choice: ProfileChoice = DEFAULT_PROFILE): string {
  return slicerConfig(choice).text
}

/** That the presets exist, the printer prints filament, and the print and filament suit it as PrusaSlicer's own lists would offer them. */
function checkPresets({ vendor, printer, print, filament }: Exclude<ProfileChoice, { config: string }>): void {
  const printerSettings = resolvePreset(vendor, 'printer', printer)
  const printSettings = resolvePreset(vendor, 'print', print)
  const filamentSettings = resolvePreset(vendor, 'filament', filament)
  if (printerSettings.get('printer_technology') === 'SLA')
    throw new ProfileError(
      `${printer} prints resin, not filament: PrusaSlicer's quote is for filament printers`,
      'printer',
    )
  if (!suits(printSettings, 'printer', printer, printerSettings))
    throw new ProfileError(`the print settings ${JSON.stringify(print)} do not suit the ${printer}`, 'print')
  if (!suits(filamentSettings, 'printer', printer, printerSettings))
    throw new ProfileError(`the filament ${JSON.stringify(filament)} does not suit the ${printer}`, 'filament')
  if (!suits(filamentSettings, 'print', print, printSettings))
    throw new ProfileError(
      `the filament ${JSON.stringify(filament)} does not suit the print settings ${JSON.stringify(print)}`,
      'filament',
    )
}

function flatten(choice: ProfileChoice, buildVolumeMm: Volume | undefined): Map<string, string> {
  if (!('config' in choice)) checkPresets(choice)
  const settings =
    'config' in choice
      ? readUploadedConfig(choice.config)
      : new Map(
          (['printer', 'print', 'filament'] as const).flatMap((kind) => [
            ...resolvePreset(choice.vendor, kind, choice[kind]),
          ]),
        )
  if (!('config' in choice)) for (const [key, value] of Object.entries(BUNDLE_OVERRIDES)) settings.set(key, value)
  if (buildVolumeMm) {
    const [x, y, z] = buildVolumeMm
    settings.set('bed_shape', `0x0,${x}x0,${x}x${y},0x${y}`)
    settings.set('max_print_height', String(z))
  }
  for (const key of PRESET_KEYS) settings.delete(key)
  return settings
}

function flatSettings(config: string): Map<string, string> {
  return parseIni(config, { refuseDuplicates: false }).get('')!
}

/** The printer's build volume in mm (x, y, z): its bed's extent and its highest print. */
function volumeOf(settings: Map<string, string>): Volume {
  const corners = settingOf(settings, 'bed_shape')!
    .split(',')
    .map((corner) => corner.split('x').map(Number))
    .filter((corner) => corner.length === 2 && corner.every(Number.isFinite))
  const height = Number(settingOf(settings, 'max_print_height'))
  if (corners.length < 3 || !(height > 0)) throw new ProfileError('the printer profile names no bed shape and height')
  const extent = (axis: number) =>
    Math.max(...corners.map((corner) => corner[axis]!)) - Math.min(...corners.map((corner) => corner[axis]!))
  return [extent(0), extent(1), height]
}

/** How many extruders the printer has: one per nozzle diameter. */
export function extrudersOf(config: string): number {
  return extrudersIn(flatSettings(config))
}

function extrudersIn(settings: Map<string, string>): number {
  return settingOf(settings, 'nozzle_diameter')!.split(',').length
}
