'use client'

import { ErrorMessage } from '@/components/ui/error-message'
import { Spinner } from '@/components/ui/spinner'
import { useApiQuery } from '@/components/use-api-query'

/** The fonts text() can use, by family with their styles: the configurator's uploads first, then the server's. */
export function FontList({ configuratorId }: { configuratorId?: string }) {
  const fonts = useApiQuery('listFonts', { query: configuratorId ? { configuratorId } : undefined })
  const families = new Map<string, { source: string; styles: string[] }>()
  for (const font of fonts.data ?? []) {
    const family = families.get(font.family) ?? { source: font.source, styles: [] }
    if (!family.styles.includes(font.style)) family.styles.push(font.style)
    families.set(font.family, family)
  }
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-stone-600">
        A model names one as <span className="font-mono">text(font = &quot;Liberation Sans:style=Bold&quot;)</span>.
        Upload a TTF or OTF file with the model to add one; a missing font is replaced by Liberation Sans, and the build
        log says so.
      </p>
      <ErrorMessage error={fonts.error} />
      {fonts.isPending && <Spinner label="Loading fonts" />}
      <ul aria-label="Fonts" className="grid gap-1 text-sm sm:grid-cols-2">
        {[...families].map(([family, { source, styles }]) => (
          <li key={family}>
            <span className="font-medium">{family}</span> <span className="text-stone-600">{styles.join(', ')}</span>
            {source === 'configurator' && (
              <span className="ml-2 rounded bg-blue-50 px-1.5 text-xs text-blue-800">uploaded</span>
            )}
          </li>
        ))}
      </ul>
    </div>
  )
}
