import { AppError } from '@/lib/api/errors'
import {
  DEFAULT_PROFILE,
  filamentsFor,
  printers,
  printsFor,
  ProfileError,
  suggested,
  vendors,
} from '@/lib/slicing/profiles'
import type { SlicerProfiles, SlicerProfilesQuery } from '@/lib/capabilities/schemas'
import { isSlicerInstalled } from '@/lib/slicing/slicer'

/** The studio's profile pickers, one level deeper with each choice made; 404 naming a choice the server's bundles do not have. */
export function listSlicerProfiles({ vendor, printer, print }: SlicerProfilesQuery): SlicerProfiles {
  try {
    const prints = vendor === undefined || printer === undefined ? [] : printsFor(vendor, printer)
    const filaments =
      vendor === undefined || printer === undefined || print === undefined ? [] : filamentsFor(vendor, printer, print)
    return {
      installed: isSlicerInstalled(),
      default: DEFAULT_PROFILE,
      vendors: vendors(),
      printers: vendor === undefined ? [] : printers(vendor),
      prints,
      filaments,
      suggested: {
        print: vendor === undefined || printer === undefined ? null : suggested(vendor, printer, 'print', prints),
        filament:
          vendor === undefined || printer === undefined || print === undefined
            ? null
            : suggested(vendor, printer, 'filament', filaments),
      },
    }
  } catch (error) {
    if (error instanceof ProfileError) throw new AppError('not_found', error.message)
    throw error
  }
}
