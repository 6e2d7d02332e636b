import { useId, type InputHTMLAttributes, type ReactNode } from 'react'
import { FOCUS_RING } from '@/components/ui/button'
import { describedByIds, FieldNotes } from '@/components/ui/field'

type CheckboxProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
  label: ReactNode
  hint?: ReactNode
  /** Shown under the checkbox and announced; marks it invalid. */
  error?: string | null
}

/** A checkbox with its label (clicking the text toggles it), its hint and error described by id. */
export function Checkbox({ label, hint, error, ...props }: CheckboxProps) {
  const id = useId()
  const describedBy = describedByIds(id, hint, error)
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
      <FieldNotes id={id} hint={hint} error={error} className="pl-7" />
    </div>
  )
}
