import { REVISION } from 'three'

/** `webgl` draws in the customer's browser, `headless` renders images on the server too. */
export const RENDERER_TYPES = ['webgl', 'headless'] as const

/** Both renderers run the three.js revision bundled with this server. */
export const RENDERER_VERSIONS = [`r${REVISION}`] as const
