import { z } from 'zod'
import { ZPresets } from '@/lib/manufacturing/schemas'
import { CAD_VERSIONS_NOTE } from '@/lib/cad/engines'

export const ZCapabilities = z.object({
  cad: z.array(
    z.object({
      type: z.string(),
      versions: z.array(z.string()).describe(CAD_VERSIONS_NOTE),
      default: z.string().describe('the version new configurators get: the fastest present'),
      modelTypes: z
        .array(z.string())
        .describe(
          'the `type`s a model of this system is downloaded as (GET .../model, .../finalizedmodel): a 3D model as a mesh (STEP too for a B-rep system), a 2D model as svg or dxf',
        ),
    }),
  ),
  renderers: z.array(z.object({ type: z.string(), versions: z.array(z.string()) })),
})
export type Capabilities = z.infer<typeof ZCapabilities>

export const ZSlicerProfilesQuery = z.object({
  vendor: z.string().max(100).optional().describe("a vendor bundle's id: also its printers"),
  printer: z
    .string()
    .max(200)
    .optional()
    .describe("one of the vendor's printers: also the print settings that suit it"),
  print: z
    .string()
    .max(200)
    .optional()
    .describe('print settings that suit the printer: also the filaments that suit both'),
})
export type SlicerProfilesQuery = z.infer<typeof ZSlicerProfilesQuery>

export const ZSlicerProfiles = z.object({
  installed: z.boolean().describe('whether this server has PrusaSlicer: without it nothing is sliced'),
  default: ZPresets.describe('the profile a configurator without a choice is sliced with'),
  vendors: z.array(z.object({ id: z.string(), name: z.string() })).describe("the server's vendor bundles"),
  printers: z
    .array(
      z.object({
        name: z.string(),
        buildVolumeMm: z.tuple([z.number(), z.number(), z.number()]).describe("its bed's extent and highest print"),
        extruders: z.number().int(),
      }),
    )
    .describe("the vendor's filament printers, when `vendor` is given"),
  prints: z.array(z.string()).describe('the print settings that suit the printer, when `printer` is given'),
  filaments: z
    .array(z.string())
    .describe('the filaments that suit the printer and print settings, when `print` is given'),
  suggested: z
    .object({ print: z.string().nullable(), filament: z.string().nullable() })
    .describe("the printer's own default print settings and filament where they suit, else the first that do"),
})
export type SlicerProfiles = z.infer<typeof ZSlicerProfiles>
