// Next.js's server bundles and the custom server (server.ts, worker.ts) each load their own copy
// of a module: a value that must be one per process (the database, the logger, a worker pool) is
// kept on globalThis under its name, made by the first copy that asks.

const registry = globalThis as typeof globalThis & { paraformSingletons?: Map<string, unknown> }

/** The process's one `name`, made by `create` on first use. */
export function processSingleton<T>(name: string, create: () => T): T {
  const singletons = (registry.paraformSingletons ??= new Map<string, unknown>())
  if (!singletons.has(name)) singletons.set(name, create())
  return singletons.get(name) as T
}

/** The process's `name` when something made it already. */
export function existingSingleton<T>(name: string): T | undefined {
  return registry.paraformSingletons?.get(name) as T | undefined
}
