// What the server stops on SIGTERM/SIGINT once its HTTP server has closed (no request left):
// each part that runs work of its own registers its stopper where it starts.

type Stopper = () => Promise<void>

// One list per process: Next's route bundles load this module apart from the custom server.
const globalForShutdown = globalThis as unknown as { paraformStoppers?: Stopper[] }
const stoppers = (globalForShutdown.paraformStoppers ??= [])

export function onShutdown(stop: Stopper): void {
  stoppers.push(stop)
}

/** Runs the stoppers one after another, the last registered first (a part may use earlier ones). */
export async function runShutdown(): Promise<void> {
  for (const stop of stoppers.toReversed()) await stop()
}
