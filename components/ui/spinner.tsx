/** A small busy indicator; `label` is what screen readers hear. */
export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <span role="status" className="inline-flex items-center gap-2 text-sm text-stone-700">
      <span aria-hidden className="size-4 animate-spin rounded-full border-2 border-stone-300 border-t-stone-800" />
      <span className="tabular-nums">{label}</span>
    </span>
  )
}
