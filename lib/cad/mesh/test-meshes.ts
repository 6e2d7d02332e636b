import type { Mesh } from '@/lib/cad/mesh/mesh'

/**
 * Test input as OpenSCAD 2025 (manifold) exports it: a red 10×20×5 box written as quads and,
 * uncoloured, a 3 mm cube at x = 20 written as triangles; one red face comes after the cube.
 * Volume 1000 + 27, bounds x 0..23, y 0..20, z 0..5.
 */
export const BOX_AND_CUBE_OFF = `OFF 16 18 0
# box
0 0 0 
10 0 0 
10 20 0 
0 20 0 
0 0 5 
10 0 5 
10 20 5 
0 20 5 
# cube
20 0 0 
23 0 0 
23 3 0 
20 3 0 
20 0 3 
23 0 3 
23 3 3 
20 3 3 
4 0 3 2 1 255 0 0
4 4 5 6 7 255 0 0
4 0 1 5 4 255 0 0
4 3 7 6 2 255 0 0
4 0 4 7 3 255 0 0
3 8 11 10
3 8 10 9
3 12 13 14
3 12 14 15
3 8 9 13
3 8 13 12
3 11 15 14
3 11 14 10
3 8 12 15
3 8 15 11
3 9 10 14
3 9 14 13
4 1 2 6 5 255 0 0
`

/** A translucent tetrahedron plus one degenerate triangle (a repeated index), as writers must cope with. */
export const TRANSLUCENT_WITH_DEGENERATE: Mesh = {
  parts: [
    {
      color: [0.2, 0.4, 0.6, 0.5],
      positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]),
      indices: new Uint32Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3, 1, 1, 2]),
    },
  ],
}
