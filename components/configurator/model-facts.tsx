import type { ObjectInfo } from '@/components/configurator/use-config-session'

const MM = new Intl.NumberFormat('en', { maximumFractionDigits: 1, minimumFractionDigits: 1 })

/** Outer dimensions (mm) and volume (cm³) of the built model, then its weight, price and what keeps it from printing well. */
export function ModelFacts({ info, isUnavailable }: { info: ObjectInfo | null; isUnavailable: boolean }) {
  const box = info?.boundingBox
  const print = info?.print
  // Weight and price are the final quality's; the preview's until that is built.
  const about = print?.estimate ? '≈ ' : ''
  const rows = [
    ['Width (X)', box && `${MM.format(box.maxX - box.minX)} mm`],
    ['Depth (Y)', box && `${MM.format(box.maxY - box.minY)} mm`],
    ['Height (Z)', box && `${MM.format(box.maxZ - box.minZ)} mm`],
    ['Volume', info && `${MM.format(info.volume / 1000)} cm³`],
    ['Weight', print && `${about}${MM.format(print.weight)} g`],
    ...(print?.price ? [['Price', `${about}${new Intl.NumberFormat('en', { style: 'currency', currency: print.price.currency }).format(Number(print.price.amount))}`] as const] : []),
  ] as const
  return (
    <div className="flex flex-col gap-2">
      <dl data-testid="model-facts" aria-live="polite" className="grid grid-cols-4 gap-2 text-center">
        {rows.map(([label, value]) => (
          <div key={label} className="rounded-md bg-stone-100 px-1 py-2">
            <dt className="text-xs text-stone-600">{label}</dt>
            <dd data-testid={`fact-${label.split(' ')[0]?.toLowerCase()}`} className="whitespace-nowrap text-sm font-semibold tabular-nums text-stone-900">
              {value ?? (isUnavailable ? 'n/a' : '...')}
            </dd>
          </div>
        ))}
      </dl>
      {print?.estimate && <p className="text-xs text-stone-600">≈ estimate from the preview; the final model is being built.</p>}
      {print && print.problems.length > 0 && (
        <ul data-testid="print-problems" className="list-disc rounded-md border border-amber-200 bg-amber-50 py-2 pl-6 pr-3 text-sm text-amber-900">
          {print.problems.map((problem) => (
            <li key={`${problem.rule}-${problem.part}`}>{problem.message}</li>
          ))}
        </ul>
      )}
    </div>
  )
}
