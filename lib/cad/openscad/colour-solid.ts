// Imported by the worker thread: relative imports only.
import type { Rgba } from '../mesh/mesh'
import { isUncoloured } from '../mesh/parse-off'

/** Channels within 1/255 are one colour: the mesh export rounds them to 0..255. */
const TOLERANCE = 1 / 255 + 1e-6

export function sameColour(a: Rgba, b: Rgba): boolean {
  return a.every((channel, i) => Math.abs(channel - b[i]!) <= TOLERANCE)
}

const COLOR_NODE = /^\t*color\(\[([^\]]*)\]\) \{$/

/** The colours a CSG tree's `color()` nodes name, in the order they first appear, channels 0..1. */
export function treeColours(csg: string): Rgba[] {
  const colours = new Map<string, Rgba>()
  for (const line of csg.split('\n')) {
    const channels = COLOR_NODE.exec(line)?.[1]?.split(',').map(Number)
    if (channels?.length !== 4 || !channels.every(Number.isFinite)) continue
    const [r, g, b, a] = channels.map((channel) => Math.round(channel * 255) / 255)
    const rounded: Rgba = [r!, g!, b!, a!]
    colours.set(rounded.join(' '), rounded)
  }
  return [...colours.values()]
}

// A CSG tree has one node per line: `name(args) {`, `}`, or a leaf `name(args);`.
const OPENING = /^\t*[$A-Za-z_]\w*\(.*\) \{$/
const CLOSING = /^\t*\}$/
const LEAF = /^(\t*)([$A-Za-z_]\w*\(.*\);)$/

/**
 * OpenSCAD source that draws only what one colour paints in a model, given the model's CSG tree
 * (`--export-format=csg`), where every `color()` is the builtin with an RGBA vector. A `color`
 * module of ours replaces the builtin for the whole tree: a subtree whose outermost colour is
 * `color` keeps its geometry (the outer `color()` wins, as in OpenSCAD's own export), any other
 * coloured subtree is dropped, and every leaf is wrapped so that uncoloured geometry is dropped
 * too, unless `color` is the colour OpenSCAD gives it. Channels within TOLERANCE match. Null
 * when a line is not a node, as when OpenSCAD 2021.01 writes a string with a quote or a line
 * break unescaped: such a tree would not read back as it was.
 */
export function colourSolidSource(csg: string, color: Rgba): string | null {
  const lines = csg.split('\n').filter((line) => line !== '')
  if (!lines.every((line) => OPENING.test(line) || CLOSING.test(line) || LEAF.test(line))) return null
  const keepsUncoloured = isUncoloured(color)
  return [
    `function paraform_paints(c) = is_list(c) && len(c) == 4 && max([for (i = [0:3]) abs(c[i] - ${JSON.stringify(color)}[i])]) <= ${TOLERANCE};`,
    'module color(c, alpha = 1) { if ($paraform_painted) children(); else if (paraform_paints(c)) let($paraform_painted = true) children(); }',
    `module paraform_leaf() if ($paraform_painted || ${keepsUncoloured}) children();`,
    '$paraform_painted = false;',
    ...lines.map((line) => line.replace(LEAF, '$1paraform_leaf() $2')),
  ].join('\n')
}
