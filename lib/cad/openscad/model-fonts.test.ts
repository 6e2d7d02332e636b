import { describe, expect, it } from 'vitest'
import { fontsForModel } from './model-fonts'

const FONTS = ['Liberation Sans', 'Liberation Serif', 'DejaVu Sans', 'DejaVu Sans Mono', 'Noto Sans'].map((family) => ({
  family,
}))
const file = (path: string, source: string) => ({ path, data: new TextEncoder().encode(source) })
const families = (fonts: { family: string }[]) => fonts.map((font) => font.family)

describe('the fonts a build places', () => {
  it('are none for a model that draws no text', () => {
    expect(
      fontsForModel(
        { files: [file('main.scad', 'cube(10); // font = "Noto Sans"')], libraries: [], values: {} },
        FONTS,
      ),
    ).toEqual([])
  })

  it('are the families the sources and font parameters name, when the machine has them all', () => {
    const model = {
      files: [
        file(
          'main.scad',
          'font = "noto sans:style=Bold"; text("A", font = font); text("B", font = "DejaVu Sans Mono");',
        ),
      ],
      libraries: [],
      values: { label_font: 'Liberation Serif' },
    }
    expect(families(fontsForModel(model, FONTS))).toEqual(['Liberation Serif', 'DejaVu Sans Mono', 'Noto Sans'])
  })

  it('add the fallback families when no family is named or one is missing', () => {
    expect(
      families(fontsForModel({ files: [file('main.scad', 'text("A");')], libraries: [], values: {} }, FONTS)),
    ).toEqual(['Liberation Sans', 'DejaVu Sans'])
    const missing = { files: [file('main.scad', 'text("A", font = "Comic Sans");')], libraries: [], values: {} }
    expect(families(fontsForModel(missing, FONTS))).toEqual(['Liberation Sans', 'DejaVu Sans'])
  })

  it('count text drawn in a library the model uses', () => {
    const model = {
      files: [file('main.scad', 'use <labels/label.scad> label();')],
      libraries: [file('labels/label.scad', 'module label() text("L");')],
      values: {},
    }
    expect(families(fontsForModel(model, FONTS))).toEqual(['Liberation Sans', 'DejaVu Sans'])
  })
})
