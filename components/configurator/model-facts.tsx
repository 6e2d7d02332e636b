import { formatDuration, isSlicePending } from '@/components/configurator/quote'
import { quoteOf } from '@/lib/manufacturing/quote'
import type { Quote } from '@/lib/manufacturing/schemas'
import type { ObjectInfo } from '@/components/configurator/use-config-session'

const MM = new Intl.NumberFormat('en', { maximumFractionDigits: 1, minimumFractionDigits: 1 })

export function formatPrice({ amount, currency }: { amount: string; currency: string }): string {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).format(Number(amount))
}

export function formatWeight(grams: number): string {
  return `${MM.format(grams)} g`
}

/**
 * Outer dimensions (mm) and volume (cm³) of the built model (the area of a 2D one), then its weight, price and what keeps
 * it from printing well. `isStale`: the figures are an earlier model's, while the current values'
 * are built or on their way (`isNotBuilt`: cannot be made): dimmed and marked ≈, in the same place,
 * so nothing moves.
 */
export function ModelFacts({
  info,
  isStale,
  isNotBuilt,
  isUnavailable,
  showPrice,
}: {
  info: ObjectInfo | null
  isStale: boolean
  isNotBuilt: boolean
  isUnavailable: boolean
  showPrice: boolean
}) {
  const box = info?.boundingBox
  const print = info?.print
  const slice = info?.slice
  const quote = info && quoteOf(info)
  const stale = isStale && info !== null ? '≈ ' : ''
  // Weight and price are the final quality's as the slicer quotes it; the preview's or the solid model's until then.
  const about = quote?.estimate || stale ? '≈ ' : ''
  // A 2D model is cut from sheet: its area, not its height, volume or weight.
  const rows = [
    ['Width (X)', box && `${stale}${MM.format(box.maxX - box.minX)} mm`],
    ['Depth (Y)', box && `${stale}${MM.format(box.maxY - box.minY)} mm`],
    ...(print?.process === 'cut'
      ? [['Area', info && `${stale}${MM.format((info.area ?? 0) / 100)} cm²`] as const]
      : ([
          ['Height (Z)', box && `${stale}${MM.format(box.maxZ - box.minZ)} mm`],
          ['Volume', info && `${stale}${MM.format(info.volume / 1000)} cm³`],
          ['Weight', quote && `${about}${formatWeight(quote.weight)}`],
          ['Print time', printTime(quote, slice)],
        ] as const)),
    ...(quote?.price && showPrice ? [['Price', `${about}${formatPrice(quote.price)}`] as const] : []),
  ] as const
  return (
    <div className="flex flex-col gap-2">
      <dl
        data-testid="model-facts"
        data-stale={stale !== '' || undefined}
        aria-live="polite"
        aria-busy={isStale}
        className="grid grid-cols-4 gap-2 text-center"
      >
        {rows.map(([label, value]) => (
          // Dimmed by weight, colour and a dashed frame rather than by opacity, which would leave the text too faint to read.
          <div
            key={label}
            className={`rounded-md px-1 py-2 ${stale ? 'border border-dashed border-stone-300 bg-stone-50' : 'border border-transparent bg-stone-100'}`}
          >
            <dt className="text-xs text-stone-600">{label}</dt>
            <dd
              data-testid={`fact-${label.split(' ')[0]?.toLowerCase()}`}
              className={`whitespace-nowrap text-sm tabular-nums ${stale ? 'font-normal text-stone-600' : 'font-semibold text-stone-900'}`}
            >
              {value ?? (isUnavailable ? 'n/a' : '...')}
            </dd>
          </div>
        ))}
      </dl>
      {/* Room for both lines from the start, so that the controls below never move when they change. */}
      <div className="flex min-h-[calc(3lh+0.25rem)] flex-col gap-1 text-xs text-stone-600">
        {print && <p>{print.process === 'cut' ? cut(print.bodies) : measured(print.bodies)}</p>}
        {stale ? (
          <p>
            {isNotBuilt
              ? '≈ the figures of the last model that could be made, not of the values you set.'
              : '≈ the figures of the model shown; those of the values you set are on their way.'}
          </p>
        ) : print?.estimate ? (
          <p>≈ estimate from the preview; the final model is being built.</p>
        ) : (
          info && <SliceNote slice={info.slice} />
        )}
      </div>
      {print && print.problems.length > 0 && (
        <ul
          data-testid="print-problems"
          className="list-disc rounded-md border border-amber-200 bg-amber-50 py-2 pl-6 pr-3 text-sm text-amber-900"
        >
          {print.problems.map((problem) => (
            <li key={`${problem.rule}-${problem.part}`}>{problem.message}</li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** The slicer's time: `≈`, as every slicer's estimate is; pending while it slices; n/a where nothing is sliced. */
function printTime(quote: Quote | null, slice: ObjectInfo['slice'] | undefined): string | null {
  if (quote?.printTimeSeconds != null) return `≈ ${formatDuration(quote.printTimeSeconds)}`
  return slice && !isSlicePending({ slice }) ? 'n/a' : null
}

function SliceNote({ slice }: { slice: ObjectInfo['slice'] }) {
  if (slice.state === 'waiting' || slice.state === 'slicing')
    return <p>≈ weight and price of the solid model; the slicer&apos;s print time and filament are on their way.</p>
  if (slice.state === 'failed')
    return <p>The slicer could not slice it ({slice.error}): weight and price are of the solid model.</p>
  return null
}

/** What width, depth and height measure: a model printed as several pieces lies side by side on the bed. */
function cut(pieces: number): string {
  return `A flat design for a laser cutter or plotter (SVG, DXF)${pieces > 1 ? `, cut as ${pieces} pieces` : ''}: width and depth measure the sheet it takes.`
}

function measured(bodies: number): string {
  return bodies > 1
    ? `Width, depth and height measure its ${bodies} pieces together, as they lie on the print bed.`
    : 'Width, depth and height measure the product.'
}
