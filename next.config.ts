import type { NextConfig } from 'next'

const config: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules, not bundled.
  serverExternalPackages: ['@electric-sql/pglite', 'pglite-prisma-adapter', 'pg'],
  poweredByHeader: false,
  typedRoutes: false,
  // The interface spells the session collection both ways.
  async rewrites() {
    return [{ source: '/api/configSessions/:path*', destination: '/api/configsessions/:path*' }]
  },
}

export default config
