import { z } from 'zod'

// What manufacturing means here: the designer's print settings and the report a customer's
// model gets (docs/print-ready.md).

const ISO_CURRENCIES = new Set(Intl.supportedValuesOf('currency'))

const ZMaterial = z.object({
  name: z.string().trim().min(1).max(100),
  density: z.number().positive().max(25).describe('g/cm³'),
  pricePerCm3: z.number().nonnegative().max(1e6).optional().describe('in the currency, per cm³ of the part'),
  pricePerKg: z
    .number()
    .nonnegative()
    .max(1e6)
    .optional()
    .describe(
      'in the currency, per kg of the filament printed for the part (the slicer weighs it; until then its solid weight)',
    ),
})

export const ZPresets = z.object({
  vendor: z.string().max(100).describe("a vendor bundle on the server, e.g. PrusaResearch (its file's name)"),
  printer: z.string().max(200),
  print: z.string().max(200),
  filament: z.string().max(200),
})

/** The PrusaSlicer profile a configurator's models are sliced with; checked against the server's bundles when stored. */
export const ZSlicerProfile = z
  .union([
    ZPresets.strict(),
    z
      .object({
        name: z.string().trim().min(1).max(200),
        config: z
          .string()
          .max(1024 * 1024)
          .describe('a config exported from PrusaSlicer (File > Export > Export Config)'),
      })
      .strict(),
  ])
  .describe(
    "presets of a vendor bundle on the server, or an uploaded config; without it Prusa's MK3S, 0.20mm QUALITY and Prusament PLA (docs/slicing.md)",
  )

/**
 * Defaults: PLA at 1.24 g/cm³ with no price, 0.8 mm walls, the slicer's printer's bed to print
 * in, nothing larger for sale (lib/manufacturing/print-report.ts, docs/slicing.md).
 */
export const ZManufacturing = z
  .looseObject({
    minimumWallMm: z.number().positive().max(100).optional().describe('walls thinner than this are flagged'),
    buildVolumeMm: z
      .tuple([z.number().positive(), z.number().positive(), z.number().positive()])
      .optional()
      .describe("x, y, z the model must fit; replaces the slicer profile's printer's bed, which it is otherwise"),
    allowOversize: z
      .boolean()
      .optional()
      .describe(
        'offer models larger than the build volume for sale too (a shop with a larger printer); false by default',
      ),
    currency: z
      .string()
      .refine((code) => ISO_CURRENCIES.has(code), 'must be an ISO 4217 currency code such as EUR')
      .optional(),
    basePrice: z.number().nonnegative().max(1e9).optional().describe('in the currency, added to every price'),
    pricePerHour: z
      .number()
      .nonnegative()
      .max(1e6)
      .optional()
      .describe("in the currency, per hour of the printer's time as the slicer estimates it (docs/slicing.md)"),
    slicer: ZSlicerProfile.optional(),
    parts: z
      .array(z.object({ label: z.string().trim().min(1).max(100).optional(), material: ZMaterial.optional() }))
      .max(256)
      .optional()
      .describe('by part number: its label and material'),
  })
  .refine(
    (settings) =>
      settings.currency !== undefined ||
      (settings.basePrice === undefined &&
        settings.pricePerHour === undefined &&
        !settings.parts?.some(
          (part) => part.material?.pricePerCm3 !== undefined || part.material?.pricePerKg !== undefined,
        )),
    {
      message: 'prices need a currency',
      path: ['currency'],
    },
  )
export type Manufacturing = z.infer<typeof ZManufacturing>
export type SlicerProfile = z.infer<typeof ZSlicerProfile>

export const ZBoundingBox = z.object({
  minX: z.number(),
  maxX: z.number(),
  minY: z.number(),
  maxY: z.number(),
  minZ: z.number(),
  maxZ: z.number(),
})
const ZPoint = z.tuple([z.number(), z.number(), z.number()])

const printFigures = {
  volume: z.number().describe('mm³'),
  surfaceArea: z.number().describe('mm²'),
  boundingBox: ZBoundingBox,
  closed: z.boolean().describe('every edge joins two triangles that agree on its direction: no slicer repair needed'),
  bodies: z
    .number()
    .int()
    .describe('separate pieces: more than one when pieces are printed side by side (a box beside its lid)'),
  thinnestWall: z
    .object({ thickness: z.number().describe('mm'), at: ZPoint })
    .nullable()
    .describe(
      'the wall thickness over the thinnest 1 % of the surface (edges and tips, thin by nature, cover less), straight inwards from a surface point',
    ),
  weight: z.number().describe('g'),
}

export const ZPrintReport = z
  .object({
    quality: z.enum(['preview', 'final']).describe('which build the figures describe'),
    // Reports frozen in snapshots before this field were of 3D models.
    process: z
      .enum(['print', 'cut'])
      .default('print')
      .describe(
        'print: a 3D model for a printer; cut: a 2D model (SVG, DXF) for a laser or plotter, which has no volume',
      ),
    estimate: z.boolean().describe('the preview figures, while the final quality is built in the background'),
    ...printFigures,
    price: z
      .object({ amount: z.string().describe('decimal, in the minor unit of the currency'), currency: z.string() })
      .nullable(),
    minimumWallMm: z.number(),
    buildVolumeMm: ZPoint,
    fitsBuildVolume: z.boolean().describe('fits the build volume in one of the six orientations a slicer tries'),
    // Reports frozen in snapshots before this field were of models on sale.
    forSale: z
      .boolean()
      .default(true)
      .describe(
        'offered for sale: it fits the build volume, or the designer allows oversize; else no price and no snapshot (409)',
      ),
    problems: z.array(
      z.object({
        rule: z.enum(['closed', 'minimumWall', 'buildVolume']),
        part: z.number().int().nullable().describe('null for the whole model'),
        message: z.string(),
        at: ZPoint.optional(),
        region: ZBoundingBox.optional(),
      }),
    ),
    parts: z.array(
      z.object({
        index: z.number().int(),
        name: z.string().describe("the designer's label, else the colour's name"),
        color: z.string(),
        material: z.object({
          name: z.string(),
          density: z.number().describe('g/cm³'),
          pricePerCm3: z.number().nullable(),
          // Reports frozen in snapshots before this field had no price per kg.
          pricePerKg: z.number().nullable().default(null),
        }),
        ...printFigures,
      }),
    ),
  })
  .describe(
    'the model that is manufactured, for a slicer and a quote: each part closed, the later part in the source owning what two share (docs/print-ready.md)',
  )
export type PrintReport = z.infer<typeof ZPrintReport>

export const ZSliceReport = z
  .object({
    state: z
      .enum(['waiting', 'slicing', 'done', 'failed', 'unavailable'])
      .describe(
        'waiting: for the final quality, built in the background once the values settle; slicing: under way; done; failed: `error` says why; unavailable: this model is not sliced (`error` says why)',
      ),
    profile: z
      .union([ZPresets, z.object({ name: z.string() })])
      .describe(
        "the PrusaSlicer profile it is sliced with: presets of the server's vendor bundles, or the uploaded config's name",
      ),
    extruders: z.number().int().describe("the printer's extruders"),
    parts: z.number().int().describe('the parts the model has, each its own colour'),
    oneFilament: z
      .boolean()
      .describe('a model of several parts sliced for a printer of one extruder: every part in the one filament'),
    printTimeSeconds: z.number().nullable().describe("the slicer's estimate (normal mode), once done"),
    materials: z
      .array(z.object({ extruder: z.number().int(), lengthMm: z.number(), weightG: z.number() }))
      .describe('the filament each extruder prints, once done'),
    supports: z.boolean().nullable().describe('whether the slicer generated support material, once done'),
    layers: z.number().int().nullable().describe('layer changes, once done'),
    price: z
      .object({ amount: z.string().describe('decimal, in the minor unit of the currency'), currency: z.string() })
      .nullable()
      .describe(
        "once done: the base price, each part's volume and the filament printed for it at its material's prices, and the print time at the hourly rate; null without a currency or for a model not for sale",
      ),
    error: z.string().nullable(),
  })
  .describe('the final quality as PrusaSlicer slices it: print time and filament for a quote (docs/slicing.md)')
export type SliceReport = z.infer<typeof ZSliceReport>

export const ZQuote = z
  .object({
    basis: z
      .enum(['slice', 'geometry'])
      .describe(
        "slice: the slicer's print time and filament; geometry: the solid model's weight and no time, as the slice failed or is not made (`reason` says why)",
      ),
    weight: z
      .number()
      .describe('grams: of filament as the slicer weighs it (supports included), else of the solid model'),
    price: ZSliceReport.shape.price.describe('null without a currency or for a model not for sale'),
    printTimeSeconds: z.number().nullable().describe("the slicer's estimate; null on the geometry's basis"),
    reason: z.string().nullable().describe("why the quote is the geometry's"),
  })
  .describe('weight, print time and price quoted for the values (docs/slicing.md)')
export type Quote = z.infer<typeof ZQuote>
