/** Unit normal of the triangle at offsets a, b, c (counter-clockwise), in float64; zero when degenerate. */
export function faceNormal(p: Float32Array, a: number, b: number, c: number): [number, number, number] {
  const [ux, uy, uz] = [p[b]! - p[a]!, p[b + 1]! - p[a + 1]!, p[b + 2]! - p[a + 2]!]
  const [vx, vy, vz] = [p[c]! - p[a]!, p[c + 1]! - p[a + 1]!, p[c + 2]! - p[a + 2]!]
  const [nx, ny, nz] = [uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx]
  const length = Math.hypot(nx, ny, nz)
  return length === 0 ? [0, 0, 0] : [nx / length, ny / length, nz / length]
}
