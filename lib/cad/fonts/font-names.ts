// A TrueType or OpenType font's family and style, from its `name` table, as fontconfig (and so
// OpenSCAD's `text(font = "Family:style=Style")`) names it. Fonts are untrusted files: every
// offset is checked, and anything unreadable is null.

const NAME_TABLE = 0x6e616d65 // 'name'
const FAMILY = 1
const SUBFAMILY = 2
const TYPOGRAPHIC_FAMILY = 16
const TYPOGRAPHIC_SUBFAMILY = 17
const WINDOWS = 3
const MACINTOSH = 1
const SFNT_VERSIONS = new Set([0x00010000, 0x4f54544f, 0x74727565]) // TrueType, 'OTTO', 'true'

export interface FontName {
  family: string
  style: string
}

function decode(bytes: Uint8Array, platform: number): string {
  if (platform !== WINDOWS) return String.fromCharCode(...bytes)
  let text = ''
  for (let at = 0; at + 1 < bytes.length; at += 2) text += String.fromCharCode((bytes[at]! << 8) | bytes[at + 1]!)
  return text
}

/** The names by id, Windows (English first) over Macintosh records. */
function readNames(data: Uint8Array, view: DataView, table: number, end: number): Map<number, string> {
  const count = view.getUint16(table + 2)
  const strings = table + view.getUint16(table + 4)
  const names = new Map<number, { text: string; rank: number }>()
  for (let index = 0; index < count; index++) {
    const record = table + 6 + index * 12
    if (record + 12 > end) break
    const platform = view.getUint16(record)
    const language = view.getUint16(record + 4)
    const id = view.getUint16(record + 6)
    const start = strings + view.getUint16(record + 10)
    const stop = start + view.getUint16(record + 8)
    if (![FAMILY, SUBFAMILY, TYPOGRAPHIC_FAMILY, TYPOGRAPHIC_SUBFAMILY].includes(id) || stop > end) continue
    const rank = platform === WINDOWS ? (language === 0x409 ? 3 : 2) : platform === MACINTOSH && language === 0 ? 1 : 0
    if (rank === 0 || (names.get(id)?.rank ?? 0) >= rank) continue
    names.set(id, { text: decode(data.subarray(start, stop), platform).trim(), rank })
  }
  return new Map([...names].map(([id, { text }]) => [id, text]))
}

export function readFontName(data: Uint8Array): FontName | null {
  try {
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
    if (!SFNT_VERSIONS.has(view.getUint32(0))) return null
    const tables = view.getUint16(4)
    for (let index = 0; index < tables; index++) {
      const entry = 12 + index * 16
      if (view.getUint32(entry) !== NAME_TABLE) continue
      const offset = view.getUint32(entry + 8)
      const end = Math.min(data.byteLength, offset + view.getUint32(entry + 12))
      const names = readNames(data, view, offset, end)
      const family = names.get(TYPOGRAPHIC_FAMILY) ?? names.get(FAMILY)
      const style = names.get(TYPOGRAPHIC_SUBFAMILY) ?? names.get(SUBFAMILY) ?? 'Regular'
      return family ? { family, style } : null
    }
    return null
  } catch {
    // A RangeError from a table that points past the end of the file.
    return null
  }
}
