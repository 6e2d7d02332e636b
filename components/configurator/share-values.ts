import type { ParameterValue } from '@/lib/cad/engine'
import type { ParameterSet } from '@/lib/sessions/schemas'

export type Values = Record<string, ParameterValue>

/** The query string of a link that reopens these values: only what differs from the defaults. */
export function encodeShareQuery(parameters: ParameterSet, values: Values): string {
  const query = new URLSearchParams()
  for (const [key, parameter] of Object.entries(parameters)) {
    const value = values[key] ?? parameter.value
    // A session file lives only in its session, so a link cannot carry it.
    if (parameter.type === 'file' || value === parameter.default) continue
    query.set(key, String(value))
  }
  return query.toString()
}

/**
 * The values a shared link asks for, read with the type of each parameter; other query
 * entries are ignored. Values the server refuses come back from it with a message.
 */
export function decodeShareQuery(parameters: ParameterSet, query: URLSearchParams): Values {
  const values: Values = {}
  for (const [key, text] of query) {
    const parameter = Object.hasOwn(parameters, key) ? parameters[key] : undefined
    if (!parameter || parameter.type === 'file') continue
    const value = parseValue(parameter.type, parameter.default, text)
    if (value !== parameter.value) values[key] = value
  }
  return values
}

function parseValue(type: ParameterSet[string]['type'], defaultValue: ParameterValue, text: string): ParameterValue {
  switch (type) {
    case 'float':
      return text.trim() === '' ? text : Number(text)
    case 'bool':
      return text === 'true' ? true : text === 'false' ? false : text
    case 'choice':
      return typeof defaultValue === 'number' && text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text
    default:
      return text
  }
}

export type PageSearchParams = Record<string, string | string[] | undefined>

/** A page's `searchParams` back into a query string (the values of a shared link). */
export function toQueryString(searchParams: PageSearchParams): string {
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(searchParams)) for (const item of [value ?? []].flat()) query.append(key, item)
  return query.toString()
}
