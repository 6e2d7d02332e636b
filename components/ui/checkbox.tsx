import type { InputHTMLAttributes, ReactNode } from 'react'
import { FOCUS_RING } from '@/components/ui/button'

/** A checkbox with its label (clicking the text toggles it) and an optional hint. */
export function Checkbox({ label, hint, ...props }: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { label: ReactNode; hint?: ReactNode }) {
  return (
    <label className="flex items-start gap-3">
      <input type="checkbox" className={`mt-0.5 size-4 shrink-0 accent-stone-900 ${FOCUS_RING}`} {...props} />
      <span className="flex flex-col gap-0.5">
        <span className="text-sm font-medium text-stone-800">{label}</span>
        {hint && <span className="text-xs text-stone-600">{hint}</span>}
      </span>
    </label>
  )
}
