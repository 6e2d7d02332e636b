/** The CAD systems a configurator may name; which versions of each this server builds with is lib/cad/engine-versions.ts's (server only). */
export const CAD_TYPES = ['openscad'] as const

export type CadType = (typeof CAD_TYPES)[number]
