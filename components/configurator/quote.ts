import type { ObjectInfo } from '@/components/configurator/use-config-session'

/** What a customer is quoted: the slicer's figures once its slice of the values is done, the model's solid weight and price until then. */
export interface Quote {
  /** Grams: of filament, as sliced, else of the solid model. */
  weight: number
  price: ObjectInfo['print']['price']
  /** The slicer's estimate; null until it is done (or where nothing is sliced). */
  printTimeSeconds: number | null
  /** Figures that will change: the preview's, or a slice on its way. */
  estimate: boolean
}

export function quoteOf({ print, slice }: ObjectInfo): Quote {
  if (slice.state === 'done')
    return {
      weight: slice.materials.reduce((sum, { weightG }) => sum + weightG, 0),
      price: slice.price,
      printTimeSeconds: slice.printTimeSeconds,
      estimate: false,
    }
  const isSlicing = slice.state === 'waiting' || slice.state === 'slicing'
  return { weight: print.weight, price: print.price, printTimeSeconds: null, estimate: print.estimate || isSlicing }
}

/** Whether the slicer's figures are still on their way: the page asks again. */
export function isSlicePending({ slice }: Pick<ObjectInfo, 'slice'>): boolean {
  return slice.state === 'waiting' || slice.state === 'slicing'
}

/** `3 h 12 min`, `46 min`: a print's time to the minute, at least one. */
export function formatDuration(seconds: number): string {
  const minutes = Math.max(1, Math.round(seconds / 60))
  const hours = Math.floor(minutes / 60)
  return hours > 0 ? `${hours} h ${minutes % 60} min` : `${minutes} min`
}
