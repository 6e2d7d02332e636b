/**
 * `read`, remembered for the last `limit` keys: callers of one key share one read, and a failed
 * read is forgotten so the next caller tries again. For content that never changes under its key.
 */
export function recentReads<K, T>(
  limit: number,
  keyOf: (item: K) => string,
  read: (item: K) => Promise<T>,
): (item: K) => Promise<T> {
  const reads = new Map<string, Promise<T>>()
  return (item) => {
    const key = keyOf(item)
    const known = reads.get(key)
    if (known) return known
    const reading = read(item)
    reading.catch(() => reads.delete(key))
    reads.set(key, reading)
    if (reads.size > limit) reads.delete(reads.keys().next().value!)
    return reading
  }
}
