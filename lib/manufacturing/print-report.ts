import type { Rgba } from '@/lib/cad/mesh/mesh'
import type { PrintMeasures, SolidMeasure } from '@/lib/cad/mesh/printability'
import { isUncoloured } from '@/lib/cad/mesh/parse-off'
import { colorName, toHex } from '@/lib/cad/mesh/write-3mf'
import type { Manufacturing, PrintReport } from '@/lib/manufacturing/schemas'

export const DEFAULT_MATERIAL = { name: 'PLA', density: 1.24 }
export const DEFAULT_MINIMUM_WALL_MM = 0.8
/** The default slicer profile's printer's (docs/slicing.md), for a server without its profiles. */
export const DEFAULT_BUILD_VOLUME_MM: [number, number, number] = [250, 210, 210]

type Figures = Omit<PrintReport['parts'][number], 'index' | 'name' | 'color' | 'material'>
type PartReport = PrintReport['parts'][number]
type Problem = PrintReport['problems'][number]

/** How the parts of a model are named: by their colours and the designer's labels, the uncoloured one by the product's name. */
export interface PartNaming {
  colors: Rgba[]
  /** The names the model gives its parts, where its CAD system names them. */
  names: (string | undefined)[]
  settings: Manufacturing | undefined
  title: string
}

/** Names of the parts as the shop sees them: the designer's labels, else the colours', and the product's name for geometry the designer did not colour. */
export function partNames({ colors, names, settings, title }: PartNaming): string[] {
  return colors.map(
    (color, k) => settings?.parts?.[k]?.label ?? names[k] ?? (isUncoloured(color) ? title : colorName(color)),
  )
}

/** The printability and price report of a model's closed parts (`colors` and `measures.parts` in part order). */
export function printReport(
  measures: PrintMeasures,
  naming: PartNaming,
  buildVolumeMm: [number, number, number],
  quality: PrintReport['quality'],
  estimate: boolean,
): PrintReport {
  const { colors, settings } = naming
  const minimumWallMm = settings?.minimumWallMm ?? DEFAULT_MINIMUM_WALL_MM
  const names = partNames(naming)
  const parts = measures.parts.map((measure, index): PartReport => {
    const { name, density, pricePerCm3, pricePerKg } = { ...DEFAULT_MATERIAL, ...settings?.parts?.[index]?.material }
    return {
      index,
      name: names[index]!,
      color: toHex(colors[index]!),
      material: { name, density, pricePerCm3: pricePerCm3 ?? null, pricePerKg: pricePerKg ?? null },
      ...figures(measure, density),
    }
  })
  const whole = { ...figures(measures.whole, 0), weight: parts.reduce((sum, part) => sum + part.weight, 0) }
  const { minX, maxX, minY, maxY, minZ, maxZ } = measures.whole.boundingBox
  const size: [number, number, number] = [maxX - minX, maxY - minY, maxZ - minZ]
  // A 2D model is cut, not printed: no printer's volume or walls apply to it.
  const isCut = minZ === 0 && maxZ === 0 && measures.whole.volume === 0
  const fitsBuildVolume = isCut || fitsInSomeOrientation(size, buildVolumeMm)
  const forSale = fitsBuildVolume || settings?.allowOversize === true
  const problems: Problem[] = isCut
    ? []
    : [
        ...parts
          .filter((part) => !part.closed)
          .map((part): Problem => ({
            rule: 'closed',
            part: part.index,
            message: `${part.name} is not a closed solid: a slicer would have to repair it`,
          })),
        ...[measures.whole, ...measures.parts].flatMap((measure, k) =>
          thinWalls(measure, minimumWallMm, k === 0 ? null : k - 1, k === 0 ? 'The model' : names[k - 1]!),
        ),
        ...(fitsBuildVolume
          ? []
          : [
              {
                rule: 'buildVolume' as const,
                part: null,
                message:
                  `The model measures ${size.map(millimetres).join(' × ')} mm: ` +
                  `it does not fit the ${buildVolumeMm.join(' × ')} mm build volume, however it is turned`,
                region: measures.whole.boundingBox,
              },
            ]),
      ]
  return {
    quality,
    process: isCut ? 'cut' : 'print',
    estimate,
    ...whole,
    price: forSale ? priceOf(settings, parts, 0) : null,
    minimumWallMm,
    buildVolumeMm,
    fitsBuildVolume,
    forSale,
    problems,
    parts,
  }
}

/** Whether the box fits the volume laid on any of its sides and turned a quarter on the bed: the six orders of its lengths. */
function fitsInSomeOrientation([x, y, z]: [number, number, number], volume: [number, number, number]): boolean {
  const orders = [
    [x, y, z],
    [y, x, z],
    [x, z, y],
    [z, x, y],
    [y, z, x],
    [z, y, x],
  ]
  return orders.some((lengths) => lengths.every((length, axis) => length <= volume[axis]!))
}

function figures({ volume, area, boundingBox, closed, bodies, wall }: SolidMeasure, density: number): Figures {
  return {
    volume,
    surfaceArea: area,
    boundingBox,
    closed,
    bodies,
    thinnestWall: wall,
    weight: (volume / 1000) * density,
  }
}

function thinWalls(
  { wall, thinnestWalls }: SolidMeasure,
  minimum: number,
  part: number | null,
  name: string,
): Problem[] {
  if (!wall || wall.thickness >= minimum) return []
  const thin = thinnestWalls.filter((sample) => sample.thickness < minimum)
  const region = {
    minX: Math.min(...thin.map(({ at }) => at[0])),
    maxX: Math.max(...thin.map(({ at }) => at[0])),
    minY: Math.min(...thin.map(({ at }) => at[1])),
    maxY: Math.max(...thin.map(({ at }) => at[1])),
    minZ: Math.min(...thin.map(({ at }) => at[2])),
    maxZ: Math.max(...thin.map(({ at }) => at[2])),
  }
  const message = `${name} has walls down to ${millimetres(wall.thickness)} mm, thinner than the ${minimum} mm minimum`
  return [{ rule: 'minimumWall', part, message, at: wall.at, region }]
}

function millimetres(value: number): string {
  return String(Math.round(value * 100) / 100)
}

/**
 * What the designer's prices make of a model: the base price, each part's volume and the grams of
 * filament printed for it at its material's prices, and the printer's time at the hourly rate.
 * Null without a currency.
 */
export function priceOf(
  settings: Manufacturing | undefined,
  parts: Pick<PartReport, 'volume' | 'weight' | 'material'>[],
  printTimeSeconds: number,
): PrintReport['price'] {
  if (!settings?.currency) return null
  const total =
    (settings.basePrice ?? 0) +
    (printTimeSeconds / 3600) * (settings.pricePerHour ?? 0) +
    parts.reduce(
      (sum, { volume, weight, material }) =>
        sum + (volume / 1000) * (material.pricePerCm3 ?? 0) + (weight / 1000) * (material.pricePerKg ?? 0),
      0,
    )
  return { amount: roundHalfUp(total, minorDigits(settings.currency)), currency: settings.currency }
}

/**
 * The price of a sliced model: as priceOf, with the slicer's time and each extruder's grams
 * shared among the parts it prints (part n on extruder n mod `extruders` + 1, as the sliced 3MF
 * says) by their solid weight. Null for a model not for sale.
 */
export function slicedPrice(
  settings: Manufacturing | undefined,
  print: { forSale: boolean; parts: Pick<PartReport, 'index' | 'volume' | 'weight' | 'material'>[] },
  { materials, printTimeSeconds }: { materials: { extruder: number; weightG: number }[]; printTimeSeconds: number },
  extruders: number,
): PrintReport['price'] {
  if (!print.forSale) return null
  const extruderOf = (index: number) => (index % extruders) + 1
  const parts = print.parts.map((part) => {
    const solid = print.parts
      .filter((other) => extruderOf(other.index) === extruderOf(part.index))
      .reduce((sum, other) => sum + other.weight, 0)
    const printed = materials.find(({ extruder }) => extruder === extruderOf(part.index))?.weightG ?? 0
    return { ...part, weight: solid > 0 ? (printed * part.weight) / solid : 0 }
  })
  return priceOf(settings, parts, printTimeSeconds)
}

/** ISO 4217's minor unit of a currency: 2 for EUR, 0 for JPY, 3 for BHD. */
export function minorDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
}

/** A non-negative amount in decimals, halves rounded up: the float's noise below 12 significant digits is dropped first, so 1.005 is 1.01. */
export function roundHalfUp(amount: number, digits: number): string {
  const minor = Math.floor(Number((amount * 10 ** digits).toPrecision(12)) + 0.5)
  return (minor / 10 ** digits).toFixed(digits)
}
