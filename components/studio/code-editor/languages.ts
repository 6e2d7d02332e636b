import { javascript } from '@codemirror/lang-javascript'
import { HighlightStyle } from '@codemirror/language'
import type { Extension } from '@codemirror/state'
// @codemirror/language's own dependency: the tags its stream parsers give tokens.
import { tags } from '@lezer/highlight'
import { json, openscad } from '@/components/studio/code-editor/openscad-language'

/** Colours for the tokens of every grammar, on a light background. */
export const highlightStyle = HighlightStyle.define([
  { tag: tags.comment, color: '#78716c', fontStyle: 'italic' },
  { tag: tags.keyword, color: '#7e22ce' },
  { tag: [tags.string, tags.propertyName], color: '#b91c1c' },
  { tag: tags.special(tags.string), color: '#c2410c' },
  { tag: [tags.number, tags.bool, tags.null], color: '#047857' },
  { tag: tags.standard(tags.variableName), color: '#1d4ed8' },
  { tag: tags.special(tags.variableName), color: '#0e7490' },
  { tag: tags.definition(tags.variableName), color: '#1e40af', fontWeight: '600' },
  { tag: tags.invalid, color: '#dc2626' },
])

/** The language extensions for a file, by its name: OpenSCAD, JavaScript and JSON; none for other files. */
export function languageFor(path: string): Extension[] {
  const name = path.toLowerCase()
  if (name.endsWith('.scad')) return [openscad]
  if (/\.m?js$/.test(name)) return [javascript()]
  if (name.endsWith('.json')) return [json]
  return []
}
