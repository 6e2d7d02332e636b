import type { FileHandle } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { crc32, createInflateRaw, inflateRawSync } from 'node:zlib'
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

export interface ZipEntry {
  name: string
  method: number
  crc: number
  compressedSize: number
  size: number
  localOffset: number
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

function notZip(what = 'Upload', why?: string): AppError {
  return new AppError('bad_request', `${what} is not a valid zip archive${why ? `: ${why}` : ''}`)
}

function entryError(name: string, problem: string): AppError {
  return new AppError('bad_request', `Zip entry ${JSON.stringify(name)}: ${problem}`)
}

function nameProblem(name: string): string | null {
  if (/^([a-z]:|[/\\])/i.test(name)) return 'absolute paths are not allowed'
  return pathProblem(name.replace(/\/$/, '').split('/'))
}

function findEndRecord(view: DataView, what?: string, why?: string): number {
  const last = view.byteLength - END_SIZE
  for (let at = last; at >= Math.max(0, last - MAX_COMMENT); at--) {
    if (view.getUint32(at, true) === END_SIGNATURE) return at
  }
  throw notZip(what, why)
}

/**
 * Checks every entry the central directory lists, before anything is inflated. `data` holds the
 * archive from offset `base` to its end (all of it for an upload; the central directory and the
 * end record of a file read by range).
 */
function readCentralDirectory(data: Uint8Array, maxEntries: number, base = 0, what?: string): ZipEntry[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  const end = findEndRecord(view, what)
  const count = view.getUint16(end + 10, true)
  if (count > maxEntries) throw new AppError('bad_request', `Zip archive has more than ${maxEntries} entries`)
  const entries: ZipEntry[] = []
  let at = view.getUint32(end + 16, true) - base
  if (at < 0) throw notZip(what)
  for (let index = 0; index < count; index++) {
    if (at + CENTRAL_SIZE > end || view.getUint32(at, true) !== CENTRAL_SIGNATURE) throw notZip(what)
    const nameEnd = at + CENTRAL_SIZE + view.getUint16(at + 28, true)
    const next = nameEnd + view.getUint16(at + 30, true) + view.getUint16(at + 32, true)
    if (next > end) throw notZip(what)
    let name: string
    try {
      name = utf8.decode(data.subarray(at + CENTRAL_SIZE, nameEnd))
    } catch {
      throw new AppError('bad_request', `Zip entry ${index + 1} has a name that is not valid UTF-8`)
    }
    const entry: ZipEntry = {
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
    if (((view.getUint32(at + 38, true) >>> 16) & FILE_TYPE_MASK) === SYMLINK_TYPE)
      throw entryError(name, 'symbolic links are not allowed')
    if (view.getUint16(at + 8, true) & 1) throw entryError(name, 'encrypted entries are not supported')
    if (entry.method !== STORED && entry.method !== DEFLATED)
      throw entryError(name, `compression method ${entry.method} is not supported`)
    if (
      [entry.compressedSize, entry.size, entry.localOffset].includes(ZIP64_MARKER) ||
      hasZip64Extra(view, nameEnd, view.getUint16(at + 30, true))
    ) {
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

function inflate(compressed: Uint8Array, entry: ZipEntry): Uint8Array {
  try {
    // Stops as soon as the output passes the declared size, so a lying header cannot make us inflate more.
    return inflateRawSync(compressed, { maxOutputLength: Math.max(entry.size, 1) })
  } catch (error) {
    const isTooLarge = (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE'
    throw entryError(
      entry.name,
      isTooLarge ? `unpacks to more than the declared ${entry.size} bytes` : 'compressed data is corrupt',
    )
  }
}

/**
 * Where the entry's data starts, from its local header (`header`: the archive's bytes from the
 * entry's local offset on, at least the header's own); `archiveSize` bounds the data.
 */
function dataStart(header: Uint8Array, entry: ZipEntry, archiveSize: number): number {
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength)
  if (LOCAL_SIZE > header.length || view.getUint32(0, true) !== LOCAL_SIGNATURE)
    throw entryError(entry.name, 'local header is missing')
  const extraStart = LOCAL_SIZE + view.getUint16(26, true)
  const start = extraStart + view.getUint16(28, true)
  if (start > header.length) throw entryError(entry.name, 'local header runs past the end of the archive')
  // Another reader could take the local header's sizes: they must be the central directory's.
  const local = { compressedSize: view.getUint32(18, true), size: view.getUint32(22, true) }
  if ([local.compressedSize, local.size].includes(ZIP64_MARKER) || hasZip64Extra(view, extraStart, start - extraStart))
    throw entryError(entry.name, 'ZIP64 entries are not supported')
  const isDescribedAfter = (view.getUint16(6, true) & DATA_DESCRIPTOR) !== 0
  if (!isDescribedAfter && (local.compressedSize !== entry.compressedSize || local.size !== entry.size))
    throw entryError(entry.name, 'local header and central directory disagree on its size')
  if (entry.localOffset + start + entry.compressedSize > archiveSize)
    throw entryError(entry.name, 'data runs past the end of the archive')
  return entry.localOffset + start
}

function readEntry(data: Uint8Array, entry: ZipEntry): Uint8Array {
  const start = dataStart(data.subarray(entry.localOffset), entry, data.length)
  const raw = data.subarray(start, start + entry.compressedSize)
  const content = entry.method === STORED ? raw : inflate(raw, entry)
  if (content.length !== entry.size)
    throw entryError(entry.name, `declares ${entry.size} bytes but holds ${content.length}`)
  if (crc32(content) !== entry.crc) throw entryError(entry.name, 'checksum does not match')
  return content
}

/**
 * Unpacks an uploaded zip in memory, refusing hostile archives before anything is inflated.
 * Entries come from the central directory alone, with our own reader, so no second parser can
 * see a different set of names. Directory entries are checked but not returned.
 */
export function readZip(
  data: Uint8Array,
  { include = () => true, check, ...limits }: ReadZipOptions = {},
): Map<string, Uint8Array> {
  const { maxEntries, maxTotalBytes, maxRatio } = { ...DEFAULT_LIMITS, ...limits }
  const entries = readCentralDirectory(data, maxEntries)
  checkSizes(entries, { maxTotalBytes, maxRatio })
  const files = entries.filter((entry) => !entry.name.endsWith('/') && include(entry.name))
  check?.(files)
  return new Map(files.map((entry) => [entry.name, readEntry(data, entry)]))
}

/** Refuses duplicate names, an entry over the ratio, and a total over the limit, by the declared sizes. */
function checkSizes(
  entries: ZipEntry[],
  { maxTotalBytes, maxRatio }: Pick<ZipLimits, 'maxTotalBytes' | 'maxRatio'>,
): void {
  const names = new Set<string>()
  let totalBytes = 0
  for (const { name, size, compressedSize } of entries) {
    if (names.has(name)) throw entryError(name, 'appears more than once')
    names.add(name)
    if (size > maxRatio * compressedSize) throw entryError(name, `compression ratio is above ${maxRatio}`)
    totalBytes += size
  }
  if (totalBytes > maxTotalBytes)
    throw new AppError('payload_too_large', `Zip archive unpacks to more than ${maxTotalBytes} bytes`)
}

/** A zip archive in a file, read by range: its entries checked as an upload's, their data not yet read. */
export interface ZipFile {
  file: FileHandle
  size: number
  /** In the order of the central directory. */
  entries: ZipEntry[]
  /** Where each entry's data starts, checked against its local header and the others' data. */
  starts: Map<ZipEntry, number>
}

/**
 * Opens a zip archive in a file too large to hold in memory (a backup): reads its end record and
 * central directory, checks every entry as readZip does (names, methods, limits by the declared
 * sizes) and every local header, and that no entry's data overlaps another's or the central
 * directory. A file cut short has no end record (or a central directory past its end): refused.
 */
export async function openZipFile(file: FileHandle, limits: ZipLimits, what: string): Promise<ZipFile> {
  const { size } = await file.stat()
  const tailStart = Math.max(0, size - END_SIZE - MAX_COMMENT)
  const tail = await readRange(file, tailStart, size - tailStart)
  const tailView = new DataView(tail.buffer, tail.byteOffset, tail.byteLength)
  const end =
    tailStart +
    findEndRecord(tailView, what, `no end record in its last ${size - tailStart} bytes (cut short, or no zip at all)`)
  const directoryOffset = tailView.getUint32(end - tailStart + 16, true)
  if (directoryOffset > end || directoryOffset + tailView.getUint32(end - tailStart + 12, true) !== end) {
    throw notZip(what, `its central directory is not where its end record (at byte ${end}) says`)
  }
  const entries = readCentralDirectory(
    await readRange(file, directoryOffset, size - directoryOffset),
    limits.maxEntries,
    directoryOffset,
    what,
  )
  checkSizes(entries, limits)
  const starts = new Map<ZipEntry, number>()
  for (const entry of entries) {
    if (entry.localOffset >= directoryOffset) throw entryError(entry.name, 'local header is missing')
    const header = await readRange(
      file,
      entry.localOffset,
      Math.min(LOCAL_SIZE + 2 * 0xffff, directoryOffset - entry.localOffset),
    )
    starts.set(entry, dataStart(header, entry, directoryOffset))
  }
  const byOffset = [...entries].sort((a, b) => a.localOffset - b.localOffset)
  byOffset.forEach((entry, index) => {
    const next = byOffset[index + 1]
    if (next && starts.get(entry)! + entry.compressedSize > next.localOffset)
      throw entryError(entry.name, 'its data overlaps the next entry')
  })
  return { file, size, entries, starts }
}

const CHUNK_BYTES = 1024 * 1024

async function* readChunks(file: FileHandle, start: number, length: number): AsyncIterable<Uint8Array> {
  for (let at = 0; at < length; at += CHUNK_BYTES)
    yield await readRange(file, start + at, Math.min(CHUNK_BYTES, length - at))
}

async function readRange(file: FileHandle, position: number, length: number): Promise<Uint8Array> {
  const buffer = new Uint8Array(length)
  const { bytesRead } = await file.read(buffer, 0, length, position)
  return buffer.subarray(0, bytesRead)
}

/**
 * The entry's content, chunk by chunk as it inflates: never more than its declared size; throws
 * after the last chunk when it is short of that size or its checksum differs.
 */
export async function* readZipFileEntry({ file, starts }: ZipFile, entry: ZipEntry): AsyncIterable<Uint8Array> {
  const raw = Readable.from(readChunks(file, starts.get(entry)!, entry.compressedSize))
  const content = entry.method === STORED ? raw : raw.pipe(createInflateRaw())
  raw.on('error', (error) => content.destroy(error))
  let size = 0
  let crc = 0
  try {
    for await (const chunk of content as AsyncIterable<Uint8Array>) {
      size += chunk.length
      if (size > entry.size) throw entryError(entry.name, `unpacks to more than the declared ${entry.size} bytes`)
      crc = crc32(chunk, crc)
      yield chunk
    }
  } catch (error) {
    if (error instanceof AppError) throw error
    throw entryError(entry.name, 'compressed data is corrupt')
  } finally {
    raw.destroy()
  }
  if (size !== entry.size) throw entryError(entry.name, `declares ${entry.size} bytes but holds ${size}`)
  if (crc !== entry.crc) throw entryError(entry.name, 'checksum does not match')
}
