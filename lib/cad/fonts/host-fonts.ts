import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { env } from '@/lib/env'
import { type FontName, readFontName } from '@/lib/cad/fonts/font-names'

// The fonts of the machine a build runs on: those in FONT_DIRS (by default the system's font
// folders) and the DejaVu fonts bundled with the app, which are there on every machine. Their
// content hash is part of every build key, so machines with other fonts never share a model.

const BUNDLED_DIR = path.join(process.cwd(), 'node_modules/dejavu-fonts-ttf/ttf')
const BUNDLED = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'DejaVuSansMono.ttf', 'DejaVuSerif.ttf']
export const FONT_FILE = /\.(ttf|otf)$/i

export interface HostFont extends FontName {
  file: string
  sizeBytes: number
}

export interface HostFonts {
  fonts: HostFont[]
  /** sha256 over every font's content, in a fixed order. */
  hash: string
}

let found: HostFonts | undefined

/** The font's file name where an engine places the machine's fonts: unique by its index, as two folders may hold the same name. */
export function placedFontName({ file }: HostFont, index: number): string {
  return `${index}-${path.basename(file)}`
}

function fontFiles(dirs: string): string[] {
  const files = BUNDLED.map((name) => path.join(BUNDLED_DIR, name))
  for (const dir of dirs.split(':').filter(Boolean)) {
    if (!fs.existsSync(dir)) continue
    for (const name of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }))
      if (FONT_FILE.test(name)) files.push(path.join(dir, name))
  }
  return files.sort()
}

/** The fonts found once per process (a machine's fonts change with a restart, as its settings do). */
export function hostFonts(dirs = env.FONT_DIRS): HostFonts {
  if (found) return found
  const hash = createHash('sha256')
  const fonts: HostFont[] = []
  for (const file of fontFiles(dirs)) {
    const data = fs.readFileSync(file)
    const name = readFontName(data)
    if (!name) continue
    hash.update(createHash('sha256').update(data).digest('hex'))
    fonts.push({ ...name, file, sizeBytes: data.byteLength })
  }
  found = { fonts, hash: hash.digest('hex') }
  return found
}
