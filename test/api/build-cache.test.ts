import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Mesh } from '@/lib/cad/mesh/mesh'

// A mesh of one part whose serialized size is about `bytes`.
function meshOfSize(bytes: number, seed: number): Mesh {
  const triangles = Math.floor(bytes / 48)
  const positions = new Float32Array(triangles * 9).map((_, i) => ((i * 7919 + seed) % 1000) / 10)
  const indices = new Uint32Array(triangles * 3).map((_, i) => i)
  return { parts: [{ color: [1, 0, 0, 1], positions, indices }] }
}

// Each test file has its own database, so a 1 MB cache limit evicts only this file's builds.
describe('build cache', () => {
  it('stays within BUILD_CACHE_MB by evicting the least recently used builds, which rebuild when asked again', async () => {
    const { env } = await import('@/lib/env')
    const { buildStored, getCachedBuild, storeBuild } = await import('@/lib/builds/build-cache')
    const { db } = await import('@/lib/db')
    const limit = env.BUILD_CACHE_MB
    env.BUILD_CACHE_MB = 1
    try {
      let builds = 0
      const build = (seed: number) => async () => {
        builds++
        return storeBuild(keys[seed - 1]!, meshOfSize(400_000, seed), { message: `build ${seed}`, error: '' })
      }
      const keys = [1, 2, 3].map((seed) => `test-eviction-${seed}-${Date.now()}`)
      // Each build is answered first and stored after, evicting what no longer fits.
      const cached = async (seed: number) => {
        const answered = await getCachedBuild(keys[seed - 1]!, build(seed))
        await buildStored()
        return answered
      }
      await cached(1)
      await cached(2)
      await new Promise((resolve) => setTimeout(resolve, 20))
      await db.cacheEntry.update({ where: { key: keys[0]! }, data: { lastUsedAt: new Date() } }) // used again: now the newest
      await cached(3)
      expect(builds).toBe(3)

      const stored = await db.cacheEntry.findMany({ where: { key: { in: keys } } })
      expect(stored.map((entry) => entry.key).sort()).toEqual([keys[0], keys[2]].sort())
      const { _sum } = await db.cacheEntry.aggregate({ _sum: { sizeBytes: true } })
      expect(_sum.sizeBytes).toBeLessThanOrEqual(1024 * 1024)
      expect(fs.existsSync(path.join(env.DATA_DIR, 'cache', `${keys[1]}.mesh`))).toBe(false)
      expect(fs.existsSync(path.join(env.DATA_DIR, 'cache', `${keys[2]}.mesh`))).toBe(true)

      const again = await cached(2)
      expect(again.source).toBe('built')
      expect(builds).toBe(4)
    } finally {
      env.BUILD_CACHE_MB = limit
    }
  })
})
