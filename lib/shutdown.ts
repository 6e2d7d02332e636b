import { processSingleton } from '@/lib/process-singleton'

// What the server stops on SIGTERM/SIGINT once its HTTP server has closed (no request left):
// each part that runs work of its own registers its stopper where it starts.

type Stopper = () => Promise<void>

const stoppers = processSingleton<Stopper[]>('stoppers', () => [])

export function onShutdown(stop: Stopper): void {
  stoppers.push(stop)
}

/** Runs the stoppers one after another, the last registered first (a part may use earlier ones). */
export async function runShutdown(): Promise<void> {
  for (const stop of stoppers.toReversed()) await stop()
}
