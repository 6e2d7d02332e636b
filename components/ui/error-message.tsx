import { ApiError } from '@/lib/client/api-client'

/** An API or network error as the user should read it: the API's own message names what is wrong. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null
  const message =
    error instanceof ApiError || error instanceof Error
      ? error.message
      : typeof error === 'string'
        ? error
        : 'Something went wrong'
  return (
    <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {message}
    </p>
  )
}
