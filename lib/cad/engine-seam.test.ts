import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// What only OpenSCAD knows stays behind the CadSystem and CadEngine seam: its folder, the editor's
// language files, and one line in each registry. Comments may name it; code may not.

const OPENSCAD_ONLY = [/\.scad\b/i, /openscad/i, /\$fn\b/, /customizer/i]

/** Where OpenSCAD may be named: its own folder and the studio editor's grammars. */
const ITS_OWN = [/^lib\/cad\/openscad\//, /^components\/studio\/code-editor\/(openscad-language|languages)\.ts$/]

/** Each registers every system on one line, and imports it on another. */
const REGISTRIES = ['lib/cad/engines.ts', 'lib/cad/engine-versions.ts']

/** The product's code: what the server and the pages run (not tests, benchmarks or test models). */
function productFiles(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
    .split('\n')
    .filter((file) => /^(app|components|lib)\/|^[^/]+$/.test(file) && /\.tsx?$/.test(file))
    .filter((file) => !/\.(test|spec)\.tsx?$|^lib\/generated\/|\.config\.ts$/.test(file) && fs.existsSync(file))
}

/** The lines of `source` (1-based) on which a token, not a comment, holds one of the names. */
function linesNaming(file: string, source: string): number[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true)
  const lines = new Set<number>()
  const visit = (node: ts.Node): void => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return
    const children = node.getChildren(sourceFile)
    if (children.length > 0) return children.forEach(visit)
    if (OPENSCAD_ONLY.some((name) => name.test(node.getText(sourceFile))))
      lines.add(sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1)
  }
  visit(sourceFile)
  return [...lines]
}

describe('the CAD seam', () => {
  const files = productFiles()

  it('finds the product code it guards', () => {
    expect(files).toEqual(
      expect.arrayContaining(['lib/sessions/presets.ts', 'components/configurator/configurator.tsx']),
    )
  })

  it('keeps OpenSCAD-only names inside its folder and the editor language files', () => {
    const outside = files
      .filter((file) => !ITS_OWN.some((own) => own.test(file)) && !REGISTRIES.includes(file))
      .flatMap((file) => linesNaming(file, fs.readFileSync(file, 'utf8')).map((line) => `${file}:${line}`))
    expect(outside).toEqual([])
  })

  it('names it in each registry only where it is imported and registered', () => {
    for (const registry of REGISTRIES)
      expect(linesNaming(registry, fs.readFileSync(registry, 'utf8')), registry).toHaveLength(2)
  })

  it('sees a name in code, not in a comment', () => {
    const source = "// main.scad\n/** $fn */\nconst a = `${'x'}` // openscad\nconst b = `main.scad`\n"
    expect(linesNaming('a.ts', source)).toEqual([4])
    expect(linesNaming('a.tsx', 'const a = <p>The Customizer</p>\n')).toEqual([1])
  })
})
