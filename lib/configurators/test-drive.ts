import { createHash } from 'node:crypto'
import type { ParameterDefinition, ParameterValue, Values } from '@/lib/cad/engine'

// Random combinations of a model's values within their ranges, to find those its designer did
// not try: the preparation builds a few in the background and the studio shows which fail.

/** mulberry32 seeded by a string: the same model gets the same samples, so preparing it again hits the cache. */
function seededRandom(seed: string): () => number {
  let state = createHash('sha256').update(seed).digest().readUInt32LE(0)
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let mixed = Math.imul(state ^ (state >>> 15), state | 1)
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61)
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296
  }
}

function sampleNumber(
  random: () => number,
  { min, max, step }: { min: number | null; max: number | null; step: number | null },
  fallback: number,
): number {
  if (min === null || max === null) return fallback
  const value = step
    ? min + Math.floor(random() * (Math.floor((max - min) / step) + 1)) * step
    : min + random() * (max - min)
  return Number(value.toFixed(10))
}

function sample(random: () => number, definition: ParameterDefinition): ParameterValue {
  switch (definition.kind) {
    case 'number':
      return sampleNumber(random, definition, definition.default)
    case 'vector':
      return definition.default.map((element) => sampleNumber(random, definition, element))
    case 'choice':
      return definition.options[Math.floor(random() * definition.options.length)]?.value ?? definition.default
    case 'bool':
      return random() < 0.5
    case 'string':
    case 'file':
      return definition.default
  }
}

/** Up to `count` distinct combinations other than the defaults, the same ones for the same `seed`. */
export function sampleValues(definitions: ParameterDefinition[], count: number, seed: string): Values[] {
  const random = seededRandom(seed)
  const seen = new Set([JSON.stringify(definitions.map((definition) => definition.default))])
  const samples: Values[] = []
  for (let attempt = 0; attempt < count * 4 && samples.length < count; attempt++) {
    const values = definitions.map((definition) => sample(random, definition))
    const key = JSON.stringify(values)
    if (seen.has(key)) continue
    seen.add(key)
    samples.push(Object.fromEntries(definitions.map((definition, index) => [definition.key, values[index]!])))
  }
  return samples
}
