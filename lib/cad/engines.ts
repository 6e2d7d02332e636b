/** CAD systems and versions this server can build, newest version last. */
export const CAD_ENGINES = { openscad: ['2025.07'] } as const satisfies Record<string, readonly string[]>

export type CadType = keyof typeof CAD_ENGINES
