/** `configurator/box.json` for the main file `box.scad`: OpenSCAD's parameter set file, beside it. */
export function presetPath(mainFile: string): string {
  return `configurator/${mainFile.replace(/\.scad$/i, '')}.json`
}

const STARTER_SCAD = `// A starter model: change it, or replace it with your own.
// Each annotated variable before the first module is a control
// customers set; /* [Group] */ comments group them, and the
// comment above a variable describes it.

/* [Size] */
// Outside width (mm)
width = 60; // [20:1:200]
// Outside depth (mm)
depth = 40; // [20:1:200]
// Height (mm)
height = 25; // [5:1:100]

/* [Style] */
// Wall thickness (mm)
wall = 2; // [1:0.5:6]
// Round the corners
rounded = true;

module outline(w, d, r) {
  if (r > 0)
    offset(r = r) square([w - 2 * r, d - 2 * r], center = true);
  else
    square([w, d], center = true);
}

corner = rounded ? 6 : 0;
difference() {
  linear_extrude(height) outline(width, depth, corner);
  translate([0, 0, wall])
    linear_extrude(height) outline(width - 2 * wall, depth - 2 * wall, max(corner - wall, 0));
}
`

/** A preset, as OpenSCAD's Customizer saves one. */
const STARTER_PRESETS = {
  fileFormatVersion: '1',
  parameterSets: { 'Small tray': { width: '40', depth: '30', height: '10', wall: '1.5', rounded: 'true' } },
}

/**
 * What a new OpenSCAD configurator made in the studio starts with, so its editor opens on code
 * that builds: the main file with annotated, grouped parameters, and a preset beside it.
 */
export function starterFiles(mainFile: string): { path: string; text: string }[] {
  return [
    { path: `configurator/${mainFile}`, text: STARTER_SCAD },
    { path: presetPath(mainFile), text: `${JSON.stringify(STARTER_PRESETS, null, 2)}\n` },
  ]
}
