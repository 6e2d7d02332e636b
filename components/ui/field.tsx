import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react'
import { FOCUS_RING } from '@/components/ui/button'

export const CONTROL_CLASSES = `w-full rounded-md border border-stone-300 bg-white px-3 py-2 text-sm text-stone-900 placeholder:text-stone-500 aria-[invalid=true]:border-red-700 ${FOCUS_RING}`

interface FieldProps {
  label: ReactNode
  hint?: ReactNode
  /** Shown under the control and announced; marks the control invalid. */
  error?: string | null
  children: (control: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ReactNode
}

/** A labelled control with its hint and error wired up for screen readers. */
export function Field({ label, hint, error, children }: FieldProps) {
  const id = useId()
  const describedBy = describedByIds(id, hint, error)
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-stone-800">
        {label}
      </label>
      {children({ id, 'aria-describedby': describedBy, ...(error ? { 'aria-invalid': true } : {}) })}
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  )
}

/** The ids a control's `aria-describedby` names for its hint and error, when it has them. */
export function describedByIds(id: string, hint: ReactNode, error: string | null | undefined): string | undefined {
  return [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined
}

/** A control's hint and its announced error, under it, with the ids describedByIds() names. */
export function FieldNotes({
  id,
  hint,
  error,
  className = '',
}: {
  id: string
  hint?: ReactNode
  error?: string | null
  className?: string
}) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className={`text-xs text-stone-600 ${className}`}>
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className={`text-xs font-medium text-red-700 ${className}`}>
          {error}
        </p>
      )}
    </>
  )
}

export function Input({ className = '', ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={`${CONTROL_CLASSES} ${className}`} {...props} />
}

export function Select({ className = '', ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select className={`${CONTROL_CLASSES} ${className}`} {...props} />
}

/** Monospaced by default, for code and JSON; `monospace={false}` for prose. */
export function TextArea({
  className = '',
  monospace = true,
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { monospace?: boolean }) {
  return <textarea className={`${CONTROL_CLASSES} ${monospace ? 'font-mono' : ''} ${className}`} {...props} />
}
