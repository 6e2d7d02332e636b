import { describe, expect, it } from 'vitest'
import { parseOff } from '@/lib/cad/mesh/parse-off'
import { BOX_AND_CUBE_OFF } from '@/lib/cad/mesh/test-meshes'
import { writeOff } from '@/lib/cad/mesh/write-off'

describe('writeOff', () => {
  it('round-trips through parseOff', () => {
    const mesh = parseOff(BOX_AND_CUBE_OFF)
    const text = writeOff(mesh)
    expect(text.split('\n')[0]).toBe('OFF 16 24 0')
    expect(text).toContain('\n3 0 1 2 255 0 0 255\n')
    expect(parseOff(text)).toEqual(mesh)
  })

  it('keeps alpha and non-integer coordinates exactly', () => {
    const mesh = parseOff('OFF 3 1 0\n0.1 -2.5e-7 1234.5678\n1 0 0\n0 1 0\n3 0 1 2 10 20 30 40\n')
    expect(parseOff(writeOff(mesh))).toEqual(mesh)
  })

  it('writes an empty mesh', () => {
    expect(parseOff(writeOff({ parts: [] }))).toEqual({ parts: [] })
  })
})
