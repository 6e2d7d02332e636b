// A mounting bracket: an L of plate with a true fillet inside its corner and clearance holes
// for screws in both legs. B-rep (replicad on OpenCascade): the shop downloads it as STEP.

const defaultParams = { width: 60, depth: 40, height: 40, thickness: 5, holes: 2, holeDiameter: 4.5, fillet: 3 }

const parameters = [
  { name: 'width', caption: 'Width (mm)', group: 'Size', min: 30, max: 160, step: 1 },
  { name: 'depth', caption: 'Base depth (mm)', group: 'Size', min: 25, max: 80, step: 1 },
  { name: 'height', caption: 'Height (mm)', group: 'Size', min: 25, max: 80, step: 1 },
  { name: 'thickness', caption: 'Plate thickness (mm)', group: 'Size', min: 3, max: 10, step: 0.5 },
  { name: 'holes', caption: 'Holes in each leg', group: 'Mounting', min: 1, max: 6, step: 1 },
  {
    name: 'holeDiameter',
    caption: 'Screw',
    group: 'Mounting',
    options: [
      { value: 3.4, label: 'M3' },
      { value: 4.5, label: 'M4' },
      { value: 5.5, label: 'M5' },
      { value: 6.6, label: 'M6' },
    ],
  },
  { name: 'fillet', caption: 'Inside fillet radius (mm)', group: 'Style', min: 0.5, max: 12, step: 0.5 },
]

function main({ draw, drawCircle }, { width, depth, height, thickness, holes, holeDiameter, fillet }) {
  const t = thickness
  if (holeDiameter >= t * 4 || holeDiameter >= Math.min(depth, height) - t)
    throw new Error(`A ${holeDiameter} mm hole does not fit a leg of this size`)
  // The L in the XZ plane, extruded along Y by the width.
  const profile = draw([0, 0])
    .hLine(depth)
    .vLine(t)
    .hLine(t - depth)
    .vLine(height - t)
    .hLine(-t)
    .close()
  const radius = Math.min(fillet, depth - t - 1, height - t - 1)
  let bracket = profile
    .sketchOnPlane('XZ')
    .extrude(-width)
    .fillet(radius, (edges) => edges.inDirection('Y').containsPoint([t, width / 2, t]))
  const spacing = width / holes
  for (let i = 0; i < holes; i++) {
    const y = spacing * (i + 0.5)
    const inBase = drawCircle(holeDiameter / 2)
      .sketchOnPlane('XY')
      .extrude(t * 3)
      .translate([t + (depth - t) / 2, y, -t])
    const inWall = drawCircle(holeDiameter / 2)
      .sketchOnPlane('YZ')
      .extrude(t * 3)
      .translate([-t, y, t + (height - t) / 2])
    bracket = bracket.cut(inBase).cut(inWall)
  }
  return [{ shape: bracket, name: 'Bracket', color: '#a8b0ba' }]
}
