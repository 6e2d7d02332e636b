import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import * as fonts from '@/lib/fonts/operations'
import * as sessions from '@/lib/sessions/operations'
import { api, readBody } from '@/test/support/api-client'
import { openSession, signUp } from '@/test/support/fixtures'

// Fonts by family and style: the machine's (Debian's fonts-liberation2, which .ci/run installs,
// found in the default FONT_DIRS), one a designer uploads, and one that is nowhere.
const LIBERATION_MONO = '/usr/share/fonts/truetype/liberation2/LiberationMono-Regular.ttf'

/** A real font under another family name (same length, in every name record), so no machine has it. */
function renamedFont(file: string, from: string, to: string): Buffer {
  expect(to).toHaveLength(from.length)
  const data = fs.readFileSync(file)
  const swaps: [Buffer, Buffer][] = [
    [Buffer.from(from, 'latin1'), Buffer.from(to, 'latin1')],
    [Buffer.from(from, 'utf16le').swap16(), Buffer.from(to, 'utf16le').swap16()],
  ]
  for (const [search, replacement] of swaps)
    for (let at = data.indexOf(search); at >= 0; at = data.indexOf(search, at + 1)) replacement.copy(data, at)
  return data
}

type Opened = Awaited<ReturnType<typeof openSession>>

async function built(opened: Opened) {
  const { session, token } = opened
  const log = await readBody(await api('GET', `/configsessions/${session.id}/log`, { token }), sessions.getLog)
  const info = await readBody(
    await api('GET', `/configsessions/${session.id}/objectinfo`, { token }),
    sessions.getObjectInfo,
  )
  return { log, width: info.boundingBox.maxX - info.boundingBox.minX }
}

const textIn = (font: string) => `linear_extrude(1) text("Wide MW", size = 10, font = "${font}");\n`

describe('fonts', () => {
  it("lists the machine's fonts by family and style", async () => {
    const designer = await signUp()
    const listed = await readBody(await api('GET', '/fonts', { token: designer.token }), fonts.listFonts)
    expect(listed).toContainEqual({
      family: 'Liberation Sans',
      style: 'Bold',
      source: 'server',
      file: 'LiberationSans-Bold.ttf',
    })
    expect(listed).toContainEqual({ family: 'DejaVu Sans', style: 'Book', source: 'server', file: 'DejaVuSans.ttf' })
  })

  it('builds text in the font and style asked for, and says which font was used when one is missing', async () => {
    const bold = await built(await openSession(textIn('Liberation Sans:style=Bold')))
    const regular = await built(await openSession(textIn('Liberation Sans')))
    const dejavu = await built(await openSession(textIn('DejaVu Sans')))
    for (const { log } of [bold, regular, dejavu]) expect(log.error).toBe('')
    expect(new Set([bold.width, regular.width, dejavu.width]).size).toBe(3)
    expect(bold.log.message).not.toContain('PARAFORM-FONT')

    const missing = await built(
      await openSession(
        `font = "Arial Black"; // [Arial Black, Liberation Sans]\n${textIn('Arial Black').replace('"Arial Black"', 'font')}`,
      ),
    )
    // The fallback is OpenSCAD's default font, as on the desktop, so the text keeps its width.
    expect(missing.log.error).toBe(
      'WARNING: font "Arial Black" is not available; the text uses "Liberation Sans" (Regular) instead',
    )
    expect(missing.width).toBeCloseTo(regular.width, 3)
  })

  it("uses a font the designer uploaded with the model, by its family, and lists it with the configurator's", async () => {
    const opened = await openSession(
      textIn('Paraform Testmo'),
      {},
      {
        'configurator/fonts/brand.ttf': new Uint8Array(
          renamedFont(LIBERATION_MONO, 'Liberation Mono', 'Paraform Testmo'),
        ),
      },
    )
    const uploaded = await built(opened)
    expect(uploaded.log.error).toBe('')
    expect(uploaded.width).toBeCloseTo((await built(await openSession(textIn('Liberation Mono')))).width, 3)

    const listed = await readBody(
      await api('GET', `/fonts?configuratorId=${opened.configuratorId}`, { token: opened.token }),
      fonts.listFonts,
    )
    expect(listed[0]).toEqual({
      family: 'Paraform Testmo',
      style: 'Regular',
      source: 'configurator',
      file: 'fonts/brand.ttf',
    })
  })
})
