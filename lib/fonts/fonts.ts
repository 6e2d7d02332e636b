import path from 'node:path'
import { listConfiguratorFiles } from '@/lib/configurators/configurator-files'
import { readFontName } from '@/lib/cad/fonts/font-names'
import { FONT_FILE, hostFonts } from '@/lib/cad/fonts/host-fonts'
import { blobStore } from '@/lib/storage/blob-store'

/** The fonts a build can use: this machine's, and with a configurator, the font files uploaded into it. */
export async function listFonts({ configuratorId, userId }: { configuratorId?: string; userId: string }) {
  const server = hostFonts().fonts.map(({ family, style, file }) => ({
    family,
    style,
    source: 'server' as const,
    file: path.basename(file),
  }))
  if (!configuratorId) return server
  const files = (await listConfiguratorFiles({ configuratorId, userId })).filter(
    (file) => file.path.startsWith('configurator/') && FONT_FILE.test(file.path),
  )
  const uploaded = await Promise.all(
    files.map(async (file) => ({
      name: readFontName(new Uint8Array(await blobStore.readBuffer(file.blobHash))),
      file: file.path.slice('configurator/'.length),
    })),
  )
  return [
    ...uploaded.flatMap(({ name, file }) => (name ? [{ ...name, source: 'configurator' as const, file }] : [])),
    ...server,
  ]
}
