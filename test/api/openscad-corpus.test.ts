import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ZObjectInfo, ZParameterSet } from '@/lib/sessions/schemas'
import { api } from '@/test/support/api-client'
import { openSession } from '@/test/support/fixtures'

// Models of test/corpus, each with what OpenSCAD's Customizer shows for it, written out by
// hand beside it (name.json), and the default build's size and volume.

const CORPUS = path.join(import.meta.dirname, '../corpus')

interface Expected {
  parameters: Record<string, unknown>
  objectInfo: { boundingBox: Record<string, number>; volume: number }
}

function corpusModel(name: string): { source: Buffer; expected: Expected } {
  return {
    source: fs.readFileSync(path.join(CORPUS, `${name}.scad`)),
    expected: JSON.parse(fs.readFileSync(path.join(CORPUS, `${name}.json`), 'utf8')) as Expected,
  }
}

type Opened = Awaited<ReturnType<typeof openSession>>

async function parametersOf({ session, token }: Opened) {
  const response = await api('GET', `/configsessions/${session.id}/parameters`, { token })
  expect(response.status).toBe(200)
  return ZParameterSet.parse(await response.json())
}

async function objectInfoOf({ session, token }: Opened) {
  return ZObjectInfo.parse(await (await api('GET', `/configsessions/${session.id}/objectinfo`, { token })).json())
}

/** The same bytes with other line endings or a byte order mark, as editors on other systems save them. */
const VARIANTS: Record<string, (source: Buffer) => Buffer> = {
  CRLF: (source) => Buffer.from(source.toString('utf8').replaceAll('\n', '\r\n')),
  CR: (source) => Buffer.from(source.toString('utf8').replaceAll('\n', '\r')),
  'a UTF-8 BOM': (source) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), source]),
  'a BOM and CRLF': (source) =>
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(source.toString('utf8').replaceAll('\n', '\r\n'))]),
}

describe('the OpenSCAD corpus', () => {
  for (const name of ['customizer-kinds', 'vectors']) {
    it(`${name}: parameters as the Customizer shows them, and the default build`, async () => {
      const { source, expected } = corpusModel(name)
      const opened = await openSession(source.toString('utf8'))
      expect(await parametersOf(opened)).toEqual(expected.parameters)
      const info = await objectInfoOf(opened)
      expect(info.boundingBox).toEqual(expected.objectInfo.boundingBox)
      expect(info.volume).toBeCloseTo(expected.objectInfo.volume, 3)
    })
  }

  for (const [variant, rewrite] of Object.entries(VARIANTS)) {
    it(`reads a file with ${variant} exactly as the same file with LF`, async () => {
      const { source, expected } = corpusModel('customizer-kinds')
      const opened = await openSession(new Uint8Array(rewrite(source)))
      expect(await parametersOf(opened)).toEqual(expected.parameters)
      expect((await objectInfoOf(opened)).volume).toBeCloseTo(expected.objectInfo.volume, 3)
    })
  }

  it('keeps non-ASCII text through a set, a read and the build', async () => {
    const opened = await openSession(`label = "Grüße"; // 20\necho(str("label: ", label));\ncube(1);\n`)
    const response = await api('PUT', `/configsessions/${opened.session.id}/parameters`, {
      token: opened.token,
      body: { label: { value: 'Ünïcødé ✓ 名前' } },
    })
    expect(response.status).toBe(200)
    expect((await parametersOf(opened)).label?.value).toBe('Ünïcødé ✓ 名前')
    const log = (await (
      await api('GET', `/configsessions/${opened.session.id}/log`, { token: opened.token })
    ).json()) as { message: string }
    expect(log.message).toContain('label: Ünïcødé ✓ 名前')
  })

  it('lists a special variable as a control unless the quality settings set it', async () => {
    const { source } = corpusModel('customizer-kinds')
    const free = await openSession(source.toString('utf8'))
    expect(Object.keys(await parametersOf(free))).toContain('$fn')
    const set = await api('PUT', `/configsessions/${free.session.id}/parameters`, {
      token: free.token,
      body: { $fn: { value: 200 } },
    })
    expect(set.status).toBe(422)

    const overridden = await openSession(source.toString('utf8'), {
      extraSettings: { quality: { preview: { $fn: 24 }, final: { $fn: 96 } } },
    })
    expect(Object.keys(await parametersOf(overridden))).not.toContain('$fn')
  })
})
