import { z } from 'zod'
import { AppError, ValidationError } from '@/lib/api/errors'

export const FILE_ROOTS = ['configurator', 'renderer'] as const
export type FileRoot = (typeof FILE_ROOTS)[number]

const MAX_SEGMENT_BYTES = 255
const MAX_SEGMENTS = 32
/** The longest path the segment limits allow (a character takes at least a byte). */
const MAX_PATH_LENGTH = MAX_SEGMENTS * (MAX_SEGMENT_BYTES + 1) - 1

/** Why a single path segment is unsafe, or null when it is a plain file or directory name. */
function segmentProblem(segment: string): string | null {
  if (segment === '') return 'empty path segment'
  if (segment === '.' || segment === '..') return `'${segment}' is not allowed in paths`
  if (/[/\\]/.test(segment)) return 'slashes and backslashes are not allowed inside a name'
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(segment)) return 'control characters are not allowed in names'
  if (new TextEncoder().encode(segment).byteLength > MAX_SEGMENT_BYTES)
    return `a name is longer than ${MAX_SEGMENT_BYTES} bytes`
  return null
}

export function pathProblem(segments: readonly string[]): string | null {
  if (segments.length === 0) return 'path is empty'
  if (segments.length > MAX_SEGMENTS) return `path has more than ${MAX_SEGMENTS} segments`
  for (const segment of segments) {
    const problem = segmentProblem(segment)
    if (problem) return problem
  }
  return null
}

/** A relative path such as `parts/lid.scad`: no absolute paths, dot segments or backslashes. */
export const ZFilePath = z
  .string()
  .max(MAX_PATH_LENGTH)
  .superRefine((value, context) => {
    const problem = pathProblem(value.split('/'))
    if (problem) context.addIssue({ code: 'custom', message: problem })
  })

/** A well-formed path that names no file a configurator may have (a dot segment, a control character, outside its directories): 422. */
function invalidPath(problem: string): ValidationError {
  return new ValidationError([{ path: ['path'], message: problem }], `Invalid file path: ${problem}`)
}

/**
 * Splits the still percent-encoded path after `/files/` into checked segments. Decoding each
 * segment ourselves catches `%2F`, `%5C` and `%2e%2e`, which must never turn into separators.
 */
export function parseEncodedPath(encoded: string): string[] {
  const segments = encoded.split('/').map((segment) => {
    try {
      return decodeURIComponent(segment)
    } catch {
      throw new AppError('bad_request', 'Path contains an invalid percent-encoding')
    }
  })
  const problem = pathProblem(segments)
  if (problem) throw invalidPath(problem)
  return segments
}

/**
 * The checked segments of the request path after `prefix` (e.g. `/files/`), taken from the raw
 * URL rather than Next's decoded params, so that an encoded separator (%2F, %5C) or dot segment
 * (%2e%2e) is seen and refused rather than resolved.
 */
export function rawPathAfter(request: Request, prefix: string): string[] {
  const { pathname } = new URL(request.url)
  const at = pathname.indexOf(prefix)
  const rest = at < 0 ? '' : pathname.slice(at + prefix.length)
  return rest === '' ? [] : parseEncodedPath(rest)
}

/** `{root}/{subDir...}/{fileName}` as the upload rules require: a known root and at least one directory. */
export function parseConfiguratorFilePath(segments: string[]): { root: FileRoot; path: string } {
  const [root] = segments
  if (!FILE_ROOTS.includes(root as FileRoot)) throw invalidPath(`it must start with ${FILE_ROOTS.join(' or ')}`)
  if (segments.length < 2) throw invalidPath('it needs a file name after the directory')
  return { root: root as FileRoot, path: segments.join('/') }
}
