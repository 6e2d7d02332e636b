import type { ParameterValue, Values } from '@/lib/cad/engine'
import type { ParameterSet } from '@/lib/sessions/schemas'

export type { Values }

// Values are numbers, strings, booleans or vectors of numbers: their JSON is equal when they are.
const isSame = (a: ParameterValue, b: ParameterValue) => JSON.stringify(a) === JSON.stringify(b)

/** The query string of a link that reopens these values: only what differs from the defaults. */
export function encodeShareQuery(parameters: ParameterSet, values: Values): string {
  const query = new URLSearchParams()
  for (const [key, parameter] of Object.entries(parameters)) {
    const value = values[key] ?? parameter.value
    // A session file lives only in its session, so a link cannot carry it.
    if (parameter.type === 'file' || isSame(value, parameter.default)) continue
    // A vector reads `size=42,42,7`.
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
    const value = parseValue(parameter, text)
    if (!isSame(value, parameter.value)) values[key] = value
  }
  return values
}

const parseNumber = (text: string) => (text.trim() === '' ? text : Number(text))

function parseValue(parameter: ParameterSet[string], text: string): ParameterValue {
  switch (parameter.type) {
    case 'float':
      return parseNumber(text)
    case 'vector': {
      const elements = text.split(',').map(parseNumber)
      return elements.every((element) => typeof element === 'number')
        ? elements.filter((element) => typeof element === 'number')
        : text
    }
    case 'bool':
      return text === 'true' ? true : text === 'false' ? false : text
    case 'choice':
      return typeof parameter.default === 'number' && text.trim() !== '' && Number.isFinite(Number(text))
        ? Number(text)
        : text
    default:
      return text
  }
}

export type PageSearchParams = Record<string, string | string[] | undefined>

/** A page's `searchParams` back into a query string (the values of a shared link). */
export function toQueryString(searchParams: PageSearchParams): string {
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(searchParams))
    for (const item of [value ?? []].flat()) query.append(key, item)
  return query.toString()
}
