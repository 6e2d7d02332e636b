import type { ObjectInfo } from '@/components/configurator/use-config-session'

/** Whether the slicer's figures are still on their way: the page asks again. */
export function isSlicePending({ slice }: Pick<ObjectInfo, 'slice'>): boolean {
  return slice.state === 'waiting' || slice.state === 'slicing'
}

/** `3 h 12 min`, `46 min`: a print's time to the minute, at least one. */
export function formatDuration(seconds: number): string {
  const minutes = Math.max(1, Math.round(seconds / 60))
  const hours = Math.floor(minutes / 60)
  return hours > 0 ? `${hours} h ${minutes % 60} min` : `${minutes} min`
}
