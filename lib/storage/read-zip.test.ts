import { randomBytes } from 'node:crypto'
import { strToU8, zipSync, type Zippable } from 'fflate'
import { describe, expect, it } from 'vitest'
import { AppError } from '@/lib/api/errors'
import { readZip, type ZipLimits } from '@/lib/storage/read-zip'

const LOCAL_SIGNATURE = [0x50, 0x4b, 0x03, 0x04]
const CENTRAL_SIGNATURE = [0x50, 0x4b, 0x01, 0x02]

function refusal(data: Uint8Array, limits?: Partial<ZipLimits>): AppError {
  try {
    readZip(data, limits)
  } catch (error) {
    if (error instanceof AppError) return error
    throw error
  }
  throw new Error('the archive was accepted')
}

function offsetsOf(data: Uint8Array, signature: number[]): number[] {
  const offsets: number[] = []
  for (let at = 0; at + signature.length <= data.length; at++) {
    if (signature.every((byte, index) => data[at + index] === byte)) offsets.push(at)
  }
  return offsets
}

/** Rewrites the uncompressed size in the entry's local header (+22) and central header (+24). */
function withDeclaredSize(zip: Uint8Array, size: number): Uint8Array {
  const patched = zip.slice()
  const view = new DataView(patched.buffer)
  for (const at of offsetsOf(patched, LOCAL_SIGNATURE)) view.setUint32(at + 22, size, true)
  for (const at of offsetsOf(patched, CENTRAL_SIGNATURE)) view.setUint32(at + 24, size, true)
  return patched
}

const text = strToU8(Array.from({ length: 300 }, (_, index) => index * 7).join(','))

describe('readZip', () => {
  it('returns every file of a normal archive and skips directory entries', () => {
    const binary = new Uint8Array(randomBytes(50_000))
    const zip = zipSync({
      'main.scad': strToU8('cube(10);'),
      parts: { 'lid-ü.scad': [text, { level: 9 }], empty: {} },
      'logo.bin': [binary, { level: 0 }],
      'empty.txt': new Uint8Array(0),
    } satisfies Zippable)

    const files = readZip(zip)

    expect([...files.keys()].sort()).toEqual(['empty.txt', 'logo.bin', 'main.scad', 'parts/lid-ü.scad'])
    expect(Buffer.from(files.get('main.scad')!).toString()).toBe('cube(10);')
    expect(Buffer.compare(files.get('parts/lid-ü.scad')!, text)).toBe(0)
    expect(Buffer.compare(files.get('logo.bin')!, binary)).toBe(0)
    expect(files.get('empty.txt')!.length).toBe(0)
  })

  it('returns nothing for an empty archive', () => {
    expect(readZip(zipSync({})).size).toBe(0)
  })

  it.each([
    ['../evil.txt', "'..' is not allowed"],
    ['a/../../b', "'..' is not allowed"],
    ['./a', "'.' is not allowed"],
    ['/etc/passwd', 'absolute'],
    ['C:\\x', 'absolute'],
    ['c:/windows/x', 'absolute'],
    ['\\\\server\\share', 'absolute'],
    ['a\\b', 'backslashes'],
    ['a//b', 'empty path segment'],
    ['a\u0000b', 'control characters'],
    ['a\nb', 'control characters'],
    ['evil/../', "'..' is not allowed"],
  ])('refuses the entry name %j', (name, problem) => {
    const error = refusal(zipSync({ 'ok.txt': text, [name]: text }))
    expect(error.status).toBe(400)
    expect(error.message).toContain(JSON.stringify(name))
    expect(error.message).toContain(problem)
  })

  it('refuses a symbolic link', () => {
    const zip = zipSync({ 'ok.txt': text, link: [strToU8('/etc/passwd'), { os: 3, attrs: 0o120777 << 16 }] })
    const error = refusal(zip)
    expect(error.status).toBe(400)
    expect(error.message).toBe('Zip entry "link": symbolic links are not allowed')
  })

  it('accepts ordinary Unix file modes', () => {
    const zip = zipSync({ 'run.sh': [text, { os: 3, attrs: 0o100755 << 16 }] })
    expect(readZip(zip).has('run.sh')).toBe(true)
  })

  it('refuses a zip bomb by its compression ratio before inflating it', () => {
    const zip = zipSync({ 'bomb.bin': [new Uint8Array(10 * 1024 * 1024), { level: 9 }] })
    const error = refusal(zip)
    expect(error.status).toBe(400)
    expect(error.message).toBe('Zip entry "bomb.bin": compression ratio is above 100')
  })

  it('refuses more entries than allowed', () => {
    const zip = zipSync(Object.fromEntries(Array.from({ length: 11 }, (_, index) => [`f${index}.txt`, text])))
    expect(readZip(zip, { maxEntries: 11 }).size).toBe(11)
    const error = refusal(zip, { maxEntries: 10 })
    expect(error.status).toBe(400)
    expect(error.message).toBe('Zip archive has more than 10 entries')
  })

  it('refuses a larger total size than allowed with 413', () => {
    const zip = zipSync({
      'a.bin': [new Uint8Array(randomBytes(600)), { level: 0 }],
      'b.bin': [new Uint8Array(randomBytes(600)), { level: 0 }],
    })
    expect(readZip(zip, { maxTotalBytes: 1200 }).size).toBe(2)
    const error = refusal(zip, { maxTotalBytes: 1000 })
    expect(error.status).toBe(413)
    expect(error.code).toBe('payload_too_large')
  })

  it('refuses an entry that inflates to more than its headers declare', () => {
    const error = refusal(withDeclaredSize(zipSync({ 'liar.txt': [text, { level: 9 }] }), 100))
    expect(error.status).toBe(400)
    expect(error.message).toBe('Zip entry "liar.txt": unpacks to more than the declared 100 bytes')
  })

  it('refuses an entry that inflates to less than its headers declare', () => {
    const error = refusal(withDeclaredSize(zipSync({ 'liar.txt': [text, { level: 9 }] }), text.length + 1))
    expect(error.status).toBe(400)
    expect(error.message).toBe(`Zip entry "liar.txt": declares ${text.length + 1} bytes but holds ${text.length}`)
  })

  it('refuses a stored entry whose sizes disagree', () => {
    const error = refusal(withDeclaredSize(zipSync({ 'liar.txt': [text, { level: 0 }] }), 10))
    expect(error.status).toBe(400)
    expect(error.message).toContain('"liar.txt": declares 10 bytes')
  })

  it('refuses an entry whose headers declare a few bytes but that inflates to 16 MB', () => {
    const error = refusal(
      withDeclaredSize(zipSync({ 'bomb.bin': [new Uint8Array(16 * 1024 * 1024), { level: 9 }] }), 100),
    )
    expect(error.status).toBe(400)
    expect(error.message).toBe('Zip entry "bomb.bin": unpacks to more than the declared 100 bytes')
  })

  it('inflates only the included files', () => {
    const model = new Uint8Array(randomBytes(1_000_000))
    const zip = zipSync({
      'parameters.json': strToU8('{}'),
      'model.stl': [model, { level: 1 }],
      files: { a: { 'logo.svg': text } },
    })
    // Corrupt data in an entry that is not included: inflating it would fail.
    const modelStart = offsetsOf(zip, [...strToU8('model.stl')])[0]! + 'model.stl'.length
    zip.fill(0xff, modelStart, modelStart + 8)

    const files = readZip(zip, { include: (name) => name !== 'model.stl' })

    expect([...files.keys()].sort()).toEqual(['files/a/logo.svg', 'parameters.json'])
    expect([...files.values()].reduce((sum, content) => sum + content.length, 0)).toBe(2 + text.length)
  })

  it('refuses duplicate names', () => {
    const zip = zipSync({ 'a.txt': text, 'b.txt': text })
    for (const at of offsetsOf(zip, [...strToU8('b.txt')])) zip.set(strToU8('a.txt'), at)
    const error = refusal(zip)
    expect(error.status).toBe(400)
    expect(error.message).toBe('Zip entry "a.txt": appears more than once')
  })

  it('refuses an entry whose content does not match its checksum', () => {
    const zip = zipSync({ 'a.txt': [text, { level: 0 }] })
    const contentStart = 30 + 'a.txt'.length
    zip[contentStart] = zip[contentStart]! ^ 1
    expect(refusal(zip).message).toBe('Zip entry "a.txt": checksum does not match')
  })

  it.each([
    ['text', strToU8('this is not a zip archive')],
    ['empty bytes', new Uint8Array(0)],
    ['a truncated archive', zipSync({ 'a.txt': text }).subarray(0, 200)],
    ['an archive without its beginning', zipSync({ 'a.txt': text }).subarray(100)],
  ])('refuses %s', (_, data) => {
    const error = refusal(data)
    expect(error.status).toBe(400)
    expect(error.message).toBe('Upload is not a valid zip archive')
  })

  it('refuses corrupt compressed data', () => {
    const zip = zipSync({ 'a.txt': [text, { level: 9 }] })
    zip.fill(0xff, 30 + 'a.txt'.length, 30 + 'a.txt'.length + 8)
    const error = refusal(zip)
    expect(error.status).toBe(400)
    expect(error.message).toMatch(/^Zip entry "a.txt": /)
  })

  it('refuses a local header with ZIP64 sizes behind a central directory without them', () => {
    const zip = zipSync({ 'a.txt': [text, { level: 9 }] })
    const view = new DataView(zip.buffer)
    const [local] = offsetsOf(zip, LOCAL_SIGNATURE)
    view.setUint32(local! + 18, 0xffffffff, true)
    view.setUint32(local! + 22, 0xffffffff, true)
    expect(refusal(zip).message).toBe('Zip entry "a.txt": ZIP64 entries are not supported')
  })

  it('refuses a local header whose sizes differ from the central directory', () => {
    const zip = zipSync({ 'a.txt': [text, { level: 9 }] })
    const [local] = offsetsOf(zip, LOCAL_SIGNATURE)
    new DataView(zip.buffer).setUint32(local! + 22, text.length + 5, true)
    expect(refusal(zip).message).toBe('Zip entry "a.txt": local header and central directory disagree on its size')
  })

  it('lets the caller refuse on the declared sizes before anything is inflated', () => {
    // Declares 90 MB of corrupt data: inflating it would fail, so only a check before inflating refuses it by size.
    const zip = withDeclaredSize(zipSync({ 'big.bin': [text, { level: 9 }] }), 90 * 1024 * 1024)
    zip.fill(0xff, 30 + 'big.bin'.length, 30 + 'big.bin'.length + 8)
    const check = (files: { name: string; size: number }[]) => {
      if (files.some(({ size }) => size > 1024 * 1024))
        throw new AppError('payload_too_large', `${files[0]!.name} is over the limit`)
    }
    expect(() => readZip(zip, { maxRatio: Number.POSITIVE_INFINITY, check })).toThrow('big.bin is over the limit')
    expect(refusal(zip, { maxRatio: Number.POSITIVE_INFINITY }).message).toBe(
      'Zip entry "big.bin": compressed data is corrupt',
    )
  })
})
