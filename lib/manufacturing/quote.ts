import type { PrintReport, Quote, SliceReport } from '@/lib/manufacturing/schemas'

/**
 * What a customer is quoted: the slicer's figures once its slice of the values is done, the
 * model's solid weight and price (no time) until then or when there is none, with why; an
 * estimate while figures may still change (the preview's, or a slice on its way).
 */
export function quoteOf({ print, slice }: { print: PrintReport; slice: SliceReport }): Quote & { estimate: boolean } {
  if (slice.state === 'done')
    return {
      basis: 'slice',
      weight: slice.materials.reduce((sum, { weightG }) => sum + weightG, 0),
      price: slice.price,
      printTimeSeconds: slice.printTimeSeconds,
      reason: null,
      estimate: false,
    }
  const isSlicing = slice.state === 'waiting' || slice.state === 'slicing'
  return {
    basis: 'geometry',
    weight: print.weight,
    price: print.price,
    printTimeSeconds: null,
    reason: isSlicing ? 'the slice is on its way' : `not sliced: ${slice.error ?? 'no reason given'}`,
    estimate: print.estimate || isSlicing,
  }
}
