import { ensureSyntaxTree, StringStream, type StreamParser } from '@codemirror/language'
import { EditorState } from '@codemirror/state'
import { highlightTree } from '@lezer/highlight'
import { describe, expect, it, vi } from 'vitest'
import { highlightStyle, languageFor } from '@/components/studio/code-editor/languages'
import { jsonParser, openscad, openscadParser } from '@/components/studio/code-editor/openscad-language'

/** Each token of `source` with its style, across lines as the editor feeds them. */
function tokensOf<State>(parser: StreamParser<State>, source: string): [string, string][] {
  const state = parser.startState!(2)
  const tokens: [string, string][] = []
  for (const line of source.split('\n')) {
    const stream = new StringStream(line, 4, 2)
    while (!stream.eol()) {
      const style = parser.token(stream, state)
      if (style) tokens.push([stream.current(), style])
      stream.start = stream.pos
    }
  }
  return tokens
}

const styleOf = (tokens: [string, string][], text: string) => tokens.find(([token]) => token === text)?.[1]

const MODEL = `include <lib/parts.scad>
use <BOSL2/std.scad>
/* [Size] */
width = 40; // [10:1:100]
depth = 1e-3 + .5 * 2.25E+2;
label = "say \\"hi\\"";
/* a comment
   over lines */
module shelf(w = width) {
  if (is_num(w) && w > 0) translate([0, 0, $fn]) cube([w, depth, 2], center = true);
  else echo(undef, false);
}
`

describe('the OpenSCAD grammar', () => {
  const tokens = tokensOf(openscadParser, MODEL)

  it('reads comments, Customizer annotations included', () => {
    expect(styleOf(tokens, '/* [Size] */')).toBe('comment')
    expect(styleOf(tokens, '// [10:1:100]')).toBe('comment')
    expect(styleOf(tokens, '/* a comment')).toBe('comment')
    expect(styleOf(tokens, '   over lines */')).toBe('comment')
  })

  it('reads strings with escapes, and include and use paths as strings', () => {
    expect(styleOf(tokens, '"say \\"hi\\""')).toBe('string')
    expect(styleOf(tokens, '<lib/parts.scad>')).toBe('string.special')
    expect(styleOf(tokens, '<BOSL2/std.scad>')).toBe('string.special')
  })

  it('reads numbers with exponents and leading points', () => {
    for (const number of ['40', '1e-3', '.5', '2.25E+2', '0']) expect(styleOf(tokens, number)).toBe('number')
  })

  it('tells keywords, builtins, special variables, definitions and names apart', () => {
    for (const keyword of ['include', 'use', 'module', 'if', 'else', 'echo'])
      expect(styleOf(tokens, keyword)).toBe('keyword')
    for (const builtin of ['is_num', 'translate', 'cube'])
      expect(styleOf(tokens, builtin)).toBe('variableName.standard')
    expect(styleOf(tokens, '$fn')).toBe('variableName.special')
    expect(styleOf(tokens, 'shelf')).toBe('variableName.definition')
    expect(styleOf(tokens, 'width')).toBe('variableName')
    expect(styleOf(tokens, 'undef')).toBe('null')
    expect(styleOf(tokens, 'false')).toBe('bool')
  })

  it('reads operators and brackets', () => {
    expect(styleOf(tokens, '&&')).toBe('operator')
    expect(styleOf(tokens, '=')).toBe('operator')
    expect(styleOf(tokens, '[')).toBe('squareBracket')
    expect(styleOf(tokens, '{')).toBe('brace')
    expect(styleOf(tokens, '(')).toBe('paren')
  })

  it('keeps a string open across lines', () => {
    expect(tokensOf(openscadParser, 'a = "one\ntwo";')).toEqual([
      ['a', 'variableName'],
      ['=', 'operator'],
      ['"one', 'string'],
      ['two"', 'string'],
      [';', 'punctuation'],
    ])
  })

  it('gives every token a tag the highlight style colours, without unknown tag names', () => {
    const warn = vi.spyOn(console, 'warn')
    const state = EditorState.create({ doc: MODEL, extensions: [openscad] })
    const tree = ensureSyntaxTree(state, state.doc.length, 5000)!
    const classes = new Map<string, string>()
    highlightTree(tree, highlightStyle, (from, to, style) => classes.set(state.sliceDoc(from, to), style))
    expect(warn).not.toHaveBeenCalled()
    for (const text of ['/* [Size] */', '"say \\"hi\\""', '1e-3', 'module', 'cube', '$fn', '<lib/parts.scad>'])
      expect(classes.get(text)).toBeTruthy()
    expect(classes.get('cube')).not.toBe(classes.get('$fn'))
  })
})

describe('the JSON grammar', () => {
  it('tells keys from string values', () => {
    expect(tokensOf(jsonParser, '{"size": "large", "n": -1.5e2, "on": true, "x": null}')).toEqual([
      ['{', 'brace'],
      ['"size"', 'propertyName'],
      [':', 'punctuation'],
      ['"large"', 'string'],
      [',', 'punctuation'],
      ['"n"', 'propertyName'],
      [':', 'punctuation'],
      ['-1.5e2', 'number'],
      [',', 'punctuation'],
      ['"on"', 'propertyName'],
      [':', 'punctuation'],
      ['true', 'bool'],
      [',', 'punctuation'],
      ['"x"', 'propertyName'],
      [':', 'punctuation'],
      ['null', 'null'],
      ['}', 'brace'],
    ])
  })
})

describe('languageFor', () => {
  it('answers OpenSCAD for .scad, JavaScript for .js, JSON for .json and nothing for other files', () => {
    expect(languageFor('configurator/lib/Parts.SCAD')).toEqual([openscad])
    expect(languageFor('configurator/presets.json')).toHaveLength(1)
    expect(languageFor('configurator/presets.json')).not.toEqual([openscad])
    expect(languageFor('configurator/readme.md')).toEqual([])
  })

  it('highlights JavaScript as the JavaScript grammar reads it', () => {
    const state = EditorState.create({
      doc: 'const defaultParams = { width: 40 } // mm',
      extensions: languageFor('configurator/main.js'),
    })
    const tree = ensureSyntaxTree(state, state.doc.length, 5000)!
    const classes = new Map<string, string>()
    highlightTree(tree, highlightStyle, (from, to, style) => classes.set(state.sliceDoc(from, to), style))
    const styles = ['const', '40', '// mm'].map((token) => classes.get(token))
    expect(styles.every(Boolean)).toBe(true)
    expect(new Set(styles).size).toBe(3)
  })
})
