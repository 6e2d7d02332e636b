import { crc32, inflateRawSync } from 'node:zlib'
import { AppError } from '@/lib/api/errors'
import { pathProblem } from '@/lib/storage/file-path'

export interface ZipLimits {
  maxEntries: number
  /** Sum of the declared uncompressed sizes of all entries. */
  maxTotalBytes: number
  /** Largest uncompressed / compressed size of one entry. */
  maxRatio: number
}

export interface ReadZipOptions extends Partial<ZipLimits> {
  /** Which files to unpack; the others are checked as every entry is but never inflated. */
  include?: (name: string) => boolean
  /** The caller's own limits on the files it unpacks, by their declared sizes: throws to refuse before any is inflated. */
  check?: (files: { name: string; size: number }[]) => void
}

const DEFAULT_LIMITS: ZipLimits = { maxEntries: 1000, maxTotalBytes: 200 * 1024 * 1024, maxRatio: 100 }

const END_SIGNATURE = 0x06054b50
const CENTRAL_SIGNATURE = 0x02014b50
const LOCAL_SIGNATURE = 0x04034b50
const END_SIZE = 22
const CENTRAL_SIZE = 46
const LOCAL_SIZE = 30
const MAX_COMMENT = 0xffff
const ZIP64_MARKER = 0xffffffff
const ZIP64_EXTRA = 0x0001
/** General purpose flag: sizes and checksum follow the data, the local header holds zeros. */
const DATA_DESCRIPTOR = 0x08
const STORED = 0
const DEFLATED = 8
const FILE_TYPE_MASK = 0o170000
const SYMLINK_TYPE = 0o120000

interface Entry {
  name: string
  method: number
  crc: number
  compressedSize: number
  size: number
  localOffset: number
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

function notZip(): AppError {
  return new AppError('bad_request', 'Upload is not a valid zip archive')
}

function entryError(name: string, problem: string): AppError {
  return new AppError('bad_request', `Zip entry ${JSON.stringify(name)}: ${problem}`)
}

function nameProblem(name: string): string | null {
  if (/^([a-z]:|[/\\])/i.test(name)) return 'absolute paths are not allowed'
  return pathProblem(name.replace(/\/$/, '').split('/'))
}

function findEndRecord(view: DataView): number {
  const last = view.byteLength - END_SIZE
  for (let at = last; at >= Math.max(0, last - MAX_COMMENT); at--) {
    if (view.getUint32(at, true) === END_SIGNATURE) return at
  }
  throw notZip()
}

/** Checks every entry the central directory lists, before anything is inflated. */
function readCentralDirectory(data: Uint8Array, view: DataView, maxEntries: number): Entry[] {
  const end = findEndRecord(view)
  const count = view.getUint16(end + 10, true)
  if (count > maxEntries) throw new AppError('bad_request', `Zip archive has more than ${maxEntries} entries`)
  const entries: Entry[] = []
  let at = view.getUint32(end + 16, true)
  for (let index = 0; index < count; index++) {
    if (at + CENTRAL_SIZE > end || view.getUint32(at, true) !== CENTRAL_SIGNATURE) throw notZip()
    const nameEnd = at + CENTRAL_SIZE + view.getUint16(at + 28, true)
    const next = nameEnd + view.getUint16(at + 30, true) + view.getUint16(at + 32, true)
    if (next > end) throw notZip()
    let name: string
    try {
      name = utf8.decode(data.subarray(at + CENTRAL_SIZE, nameEnd))
    } catch {
      throw new AppError('bad_request', `Zip entry ${index + 1} has a name that is not valid UTF-8`)
    }
    const entry: Entry = {
      name,
      method: view.getUint16(at + 10, true),
      crc: view.getUint32(at + 16, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
    }
    const problem = nameProblem(name)
    if (problem) throw entryError(name, problem)
    // The Unix mode sits in the high half of the external attributes; checked whatever the
    // archive claims as its origin, since a symlink could later be followed out of the upload.
    if (((view.getUint32(at + 38, true) >>> 16) & FILE_TYPE_MASK) === SYMLINK_TYPE) throw entryError(name, 'symbolic links are not allowed')
    if (view.getUint16(at + 8, true) & 1) throw entryError(name, 'encrypted entries are not supported')
    if (entry.method !== STORED && entry.method !== DEFLATED) throw entryError(name, `compression method ${entry.method} is not supported`)
    if ([entry.compressedSize, entry.size, entry.localOffset].includes(ZIP64_MARKER) || hasZip64Extra(view, nameEnd, view.getUint16(at + 30, true))) {
      throw entryError(name, 'ZIP64 entries are not supported')
    }
    entries.push(entry)
    at = next
  }
  return entries
}

/** Whether the extra fields at `start` hold a ZIP64 one (header id 1). */
function hasZip64Extra(view: DataView, start: number, length: number): boolean {
  for (let at = start; at + 4 <= start + length; at += 4 + view.getUint16(at + 2, true)) {
    if (view.getUint16(at, true) === ZIP64_EXTRA) return true
  }
  return false
}

function inflate(compressed: Uint8Array, entry: Entry): Uint8Array {
  try {
    // Stops as soon as the output passes the declared size, so a lying header cannot make us inflate more.
    return inflateRawSync(compressed, { maxOutputLength: Math.max(entry.size, 1) })
  } catch (error) {
    const isTooLarge = (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE'
    throw entryError(entry.name, isTooLarge ? `unpacks to more than the declared ${entry.size} bytes` : 'compressed data is corrupt')
  }
}

function readEntry(data: Uint8Array, view: DataView, entry: Entry): Uint8Array {
  const at = entry.localOffset
  if (at + LOCAL_SIZE > data.length || view.getUint32(at, true) !== LOCAL_SIGNATURE) throw entryError(entry.name, 'local header is missing')
  const extraStart = at + LOCAL_SIZE + view.getUint16(at + 26, true)
  const start = extraStart + view.getUint16(at + 28, true)
  if (start > data.length) throw entryError(entry.name, 'local header runs past the end of the archive')
  // Another reader could take the local header's sizes: they must be the central directory's.
  const local = { compressedSize: view.getUint32(at + 18, true), size: view.getUint32(at + 22, true) }
  if ([local.compressedSize, local.size].includes(ZIP64_MARKER) || hasZip64Extra(view, extraStart, start - extraStart)) throw entryError(entry.name, 'ZIP64 entries are not supported')
  const isDescribedAfter = (view.getUint16(at + 6, true) & DATA_DESCRIPTOR) !== 0
  if (!isDescribedAfter && (local.compressedSize !== entry.compressedSize || local.size !== entry.size)) throw entryError(entry.name, 'local header and central directory disagree on its size')
  if (start + entry.compressedSize > data.length) throw entryError(entry.name, 'data runs past the end of the archive')
  const raw = data.subarray(start, start + entry.compressedSize)
  const content = entry.method === STORED ? raw : inflate(raw, entry)
  if (content.length !== entry.size) throw entryError(entry.name, `declares ${entry.size} bytes but holds ${content.length}`)
  if (crc32(content) !== entry.crc) throw entryError(entry.name, 'checksum does not match')
  return content
}

/**
 * Unpacks an uploaded zip in memory, refusing hostile archives before anything is inflated.
 * Entries come from the central directory alone, with our own reader, so no second parser can
 * see a different set of names. Directory entries are checked but not returned.
 */
export function readZip(data: Uint8Array, { include = () => true, check, ...limits }: ReadZipOptions = {}): Map<string, Uint8Array> {
  const { maxEntries, maxTotalBytes, maxRatio } = { ...DEFAULT_LIMITS, ...limits }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  const entries = readCentralDirectory(data, view, maxEntries)
  const names = new Set<string>()
  let totalBytes = 0
  for (const { name, size, compressedSize } of entries) {
    if (names.has(name)) throw entryError(name, 'appears more than once')
    names.add(name)
    if (size > maxRatio * compressedSize) throw entryError(name, `compression ratio is above ${maxRatio}`)
    totalBytes += size
  }
  if (totalBytes > maxTotalBytes) {
    throw new AppError('payload_too_large', `Zip archive unpacks to more than ${maxTotalBytes} bytes`)
  }
  const files = entries.filter((entry) => !entry.name.endsWith('/') && include(entry.name))
  check?.(files)
  return new Map(files.map((entry) => [entry.name, readEntry(data, view, entry)]))
}
