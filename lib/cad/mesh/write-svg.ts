import type { Contour } from '@/lib/cad/mesh/flat-outline'
import type { BoundingBox } from '@/lib/cad/mesh/mesh'

const round = (value: number) => Number(value.toFixed(4))

/**
 * SVG of a 2D model's contours, one unit a millimetre (width and height in mm), Y up as the model
 * has it: a cut line each, no fill, as laser cutters and plotters read them.
 */
export function writeSvg(contours: Contour[], box: BoundingBox): Uint8Array {
  const width = round(box.maxX - box.minX)
  const height = round(box.maxY - box.minY)
  const data = contours
    .map((contour) => `M${contour.map(([x, y]) => `${round(x)},${round(-y)}`).join(' L')} Z`)
    .join(' ')
  const svg = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}mm" height="${height}mm" viewBox="${round(box.minX)} ${round(-box.maxY)} ${width} ${height}">`,
    `  <path d="${data}" fill="none" stroke="#000" stroke-width="0.1" fill-rule="evenodd"/>`,
    '</svg>',
    '',
  ]
  return new TextEncoder().encode(svg.join('\n'))
}
