import type { ButtonHTMLAttributes } from 'react'

const VARIANTS = {
  primary: 'bg-stone-900 text-white hover:bg-stone-700 disabled:bg-stone-400',
  secondary: 'border border-stone-300 bg-white text-stone-900 hover:bg-stone-100 disabled:text-stone-400',
  danger: 'bg-red-700 text-white hover:bg-red-800 disabled:bg-red-300',
  ghost: 'text-stone-700 hover:bg-stone-200 disabled:text-stone-400',
} as const

export type ButtonVariant = keyof typeof VARIANTS

/** Shared focus ring: visible on keyboard focus only, with enough contrast on white and stone. */
export const FOCUS_RING = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700'

export function buttonClasses(variant: ButtonVariant = 'primary', className = ''): string {
  return `inline-flex items-center justify-center gap-2 rounded-md px-3 py-2 text-sm font-medium motion-safe:transition-colors disabled:cursor-not-allowed ${FOCUS_RING} ${VARIANTS[variant]} ${className}`
}

export function Button({
  variant,
  className,
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant }) {
  return <button type={type} className={buttonClasses(variant, className)} {...props} />
}
