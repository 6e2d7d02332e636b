import type { ObjectInfo } from '@/components/configurator/use-config-session'

const MM = new Intl.NumberFormat('en', { maximumFractionDigits: 1, minimumFractionDigits: 1 })

/** Outer dimensions (mm) and volume (cm³) of the built model. */
export function ModelFacts({ info, isUnavailable }: { info: ObjectInfo | null; isUnavailable: boolean }) {
  const box = info?.boundingBox
  const rows = [
    ['Width (X)', box && `${MM.format(box.maxX - box.minX)} mm`],
    ['Depth (Y)', box && `${MM.format(box.maxY - box.minY)} mm`],
    ['Height (Z)', box && `${MM.format(box.maxZ - box.minZ)} mm`],
    ['Volume', info && `${MM.format(info.volume / 1000)} cm³`],
  ] as const
  return (
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
  )
}
