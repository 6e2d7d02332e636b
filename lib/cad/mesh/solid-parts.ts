// Relative imports: the build worker threads load this module too.
import Module, { type Manifold, type ManifoldToplevel } from 'manifold-3d'
import type { Mesh, MeshPart } from './mesh'
import { weld } from './printability'

let toplevel: Promise<ManifoldToplevel> | undefined

function manifoldLibrary(): Promise<ManifoldToplevel> {
  toplevel ??= Module().then((library) => {
    library.setup()
    return library
  })
  return toplevel
}

/** All triangles of a mesh as one solid; throws when they enclose no closed volume. */
function toSolid({ Manifold, Mesh: MeshGL }: ManifoldToplevel, mesh: Mesh): Manifold {
  const { positions, indices } = weld(mesh)
  const meshGL = new MeshGL({ numProp: 3, vertProperties: positions, triVerts: indices })
  // Joins what welding at the exact position missed, within Manifold's tolerance.
  meshGL.merge()
  return new Manifold(meshGL)
}

function toPart(solid: Manifold, color: MeshPart['color']): MeshPart {
  const { vertProperties, triVerts } = solid.getMesh()
  return { color, positions: Float32Array.from(vertProperties), indices: Uint32Array.from(triVerts) }
}

/**
 * A model's parts as closed solids that never overlap. `union` is the model as built: one solid,
 * its faces grouped into parts by colour, so where parts touch the faces between them are gone.
 * `solids` are the parts after the first, in order, each with the solid its colour draws in the
 * source before any union (part 0's is not needed). Part k ≥ 1 is the model's volume inside its
 * own solid and outside every later part's: the later part in the source wins what two share.
 * Part 0 keeps what is left, so the parts' volumes add up to the model's. A part whose colour only
 * cut (a `difference()`'s subtracted child) comes out empty. Null when `union` is no closed solid.
 */
export async function closeParts(
  union: Mesh,
  solids: { color: MeshPart['color']; solid: Mesh }[],
): Promise<Mesh | null> {
  const library = await manifoldLibrary()
  const made: Manifold[] = []
  const keep = (solid: Manifold) => (made.push(solid), solid)
  try {
    let whole: Manifold
    try {
      whole = keep(toSolid(library, union))
    } catch {
      return null
    }
    const own = solids.map(({ solid }) => keep(whole.intersect(keep(toSolid(library, solid)))))
    const parts: Manifold[] = []
    let later = keep(library.Manifold.union([]))
    for (let k = own.length - 1; k >= 0; k--) {
      parts.unshift(keep(own[k]!.subtract(later)))
      later = keep(later.add(own[k]!))
    }
    parts.unshift(keep(whole.subtract(later)))
    const colors = [union.parts[0]!.color, ...solids.map(({ color }) => color)]
    return { parts: parts.map((part, k) => toPart(part, colors[k]!)) }
  } finally {
    for (const solid of made) solid.delete()
  }
}
