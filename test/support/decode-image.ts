import zlib from 'node:zlib'

/** Width and height from a PNG, JPEG or WebP header; null when the bytes are none of them. */
export function imageSize(bytes: Buffer): { type: 'png' | 'jpeg' | 'webp'; width: number; height: number } | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return { type: 'png', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    // Walk the segments to the first start-of-frame (SOF0..SOF15 except DHT, JPG, DAC).
    for (let offset = 2; offset + 9 < bytes.length;) {
      if (bytes[offset] !== 0xff) return null
      const marker = bytes[offset + 1]!
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
        return { type: 'jpeg', height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) }
      }
      offset += 2 + bytes.readUInt16BE(offset + 2)
    }
    return null
  }
  if (bytes.toString('ascii', 0, 4) === 'RIFF' && bytes.toString('ascii', 8, 12) === 'WEBP') {
    const chunk = bytes.toString('ascii', 12, 16)
    if (chunk === 'VP8 ')
      return { type: 'webp', width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff }
    if (chunk === 'VP8L') {
      const bits = bytes.readUInt32LE(21)
      return { type: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 }
    }
    if (chunk === 'VP8X')
      return { type: 'webp', width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 }
  }
  return null
}

export interface Pixels {
  width: number
  height: number
  /** RGBA, 4 bytes a pixel, rows top to bottom. */
  data: Uint8Array
  at: (x: number, y: number) => [number, number, number, number]
}

/** A minimal PNG decoder: 8-bit RGB or RGBA, not interlaced (what Chromium's canvas encoder writes). */
export function decodePng(bytes: Buffer): Pixels {
  let offset = 8
  let width = 0
  let height = 0
  let channels = 0
  const idat: Buffer[] = []
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset)
    const type = bytes.toString('ascii', offset + 4, offset + 8)
    const chunk = bytes.subarray(offset + 8, offset + 8 + length)
    if (type === 'IHDR') {
      width = chunk.readUInt32BE(0)
      height = chunk.readUInt32BE(4)
      const [depth, colorType, , , interlace] = chunk.subarray(8)
      if (depth !== 8 || interlace !== 0 || (colorType !== 2 && colorType !== 6))
        throw new Error(`unsupported PNG: depth ${depth}, colour type ${colorType}`)
      channels = colorType === 6 ? 4 : 3
    }
    if (type === 'IDAT') idat.push(chunk)
    offset += 12 + length
  }
  const raw = zlib.inflateSync(Buffer.concat(idat))
  const stride = width * channels
  const rows = new Uint8Array(height * stride)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x]!
      const a = x >= channels ? rows[y * stride + x - channels]! : 0
      const b = y > 0 ? rows[(y - 1) * stride + x]! : 0
      const c = x >= channels && y > 0 ? rows[(y - 1) * stride + x - channels]! : 0
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter]
      if (predictor === undefined) throw new Error(`bad PNG filter ${filter}`)
      rows[y * stride + x] = (value + predictor) & 0xff
    }
  }
  const data = new Uint8Array(width * height * 4)
  for (let i = 0; i < width * height; i++) {
    for (let k = 0; k < 3; k++) data[i * 4 + k] = rows[i * channels + k]!
    data[i * 4 + 3] = channels === 4 ? rows[i * channels + 3]! : 255
  }
  const at = (x: number, y: number) => {
    const i = (y * width + x) * 4
    return [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!] as [number, number, number, number]
  }
  return { width, height, data, at }
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)]
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
}
