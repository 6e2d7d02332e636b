import { useId, type InputHTMLAttributes, type ReactNode } from 'react'
import { FOCUS_RING } from '@/components/ui/button'

type CheckboxProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
  label: ReactNode
  hint?: ReactNode
  /** Shown under the checkbox and announced; marks it invalid. */
  error?: string | null
}

/** A checkbox with its label (clicking the text toggles it), its hint and error described by id. */
export function Checkbox({ label, hint, error, ...props }: CheckboxProps) {
  const id = useId()
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined
  return (
    <div className="flex flex-col gap-1">
      <label className="flex items-start gap-3">
        <input
          type="checkbox"
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          className={`mt-0.5 size-4 shrink-0 accent-stone-900 ${FOCUS_RING}`}
          {...props}
        />
        <span className="text-sm font-medium text-stone-800">{label}</span>
      </label>
      {hint && (
        <p id={`${id}-hint`} className="pl-7 text-xs text-stone-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="pl-7 text-xs font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  )
}
