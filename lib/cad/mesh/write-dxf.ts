import type { Contour } from '@/lib/cad/mesh/flat-outline'

/**
 * DXF (R12, the version every laser cutter's software reads) of a 2D model's contours in
 * millimetres: a closed POLYLINE each, on layer 0.
 */
export function writeDxf(contours: Contour[]): Uint8Array {
  const lines: (string | number)[] = [0, 'SECTION', 2, 'HEADER', 9, '$ACADVER', 1, 'AC1009', 9, '$INSUNITS', 70, 4]
  lines.push(0, 'ENDSEC', 0, 'SECTION', 2, 'ENTITIES')
  for (const contour of contours) {
    lines.push(0, 'POLYLINE', 8, '0', 66, 1, 70, 1, 10, 0, 20, 0, 30, 0)
    for (const [x, y] of contour) lines.push(0, 'VERTEX', 8, '0', 10, x.toFixed(4), 20, y.toFixed(4), 30, 0)
    lines.push(0, 'SEQEND', 8, '0')
  }
  lines.push(0, 'ENDSEC', 0, 'EOF')
  return new TextEncoder().encode(`${lines.join('\n')}\n`)
}
