/** The preset file beside a main file: `configurator/bracket.json` for `bracket.js`. */
export function presetPath(mainFile: string): string {
  return `configurator/${mainFile.replace(/\.m?js$/i, '')}.json`
}

const STARTER_MODEL = `// A starter model: change it, or replace it with your own (docs/replicad.md).
// Each value of defaultParams is a control customers set; an entry of
// parameters gives it a caption, a group and a range.

const defaultParams = { width: 60, depth: 40, height: 25, fillet: 4, finish: 'Oak' }

const parameters = [
  { name: 'width', caption: 'Outside width (mm)', group: 'Size', min: 20, max: 200, step: 1 },
  { name: 'depth', caption: 'Outside depth (mm)', group: 'Size', min: 20, max: 200, step: 1 },
  { name: 'height', caption: 'Height (mm)', group: 'Size', min: 5, max: 100, step: 1 },
  { name: 'fillet', caption: 'Rounded edges (mm)', group: 'Style', min: 0.5, max: 8, step: 0.5 },
  { name: 'finish', caption: 'Finish', group: 'Style', options: ['Oak', 'Walnut'] },
]

function main({ makeBaseBox }, { width, depth, height, fillet, finish }) {
  const radius = Math.min(fillet, height / 2 - 0.5, width / 4, depth / 4)
  const block = makeBaseBox(width, depth, height).fillet(radius)
  return [{ shape: block, name: 'Block', color: finish === 'Oak' ? '#c8a165' : '#5b3a29' }]
}
`

/** A preset, as the studio saves one: the values it sets. */
const STARTER_PRESETS = { parameterSets: { 'Small block': { width: 40, depth: 30, height: 10, fillet: 2 } } }

/**
 * What a new replicad configurator made in the studio starts with, so its editor opens on code
 * that builds: defaultParams with their definitions and a main function, and a preset beside it.
 */
export function starterFiles(mainFile: string): { path: string; text: string }[] {
  return [
    { path: `configurator/${mainFile}`, text: STARTER_MODEL },
    { path: presetPath(mainFile), text: `${JSON.stringify(STARTER_PRESETS, null, 2)}\n` },
  ]
}
