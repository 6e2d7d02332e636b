import path from 'node:path'
import { defineConfig } from 'prisma/config'

// Prisma's migrate CLI downloads a native engine, which is impossible offline; generate,
// validate and format work with this stub. Migrations are authored with
// scripts/wasm-migrate.mjs and applied by the app itself (lib/db/migrate.ts).
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(import.meta.dirname, 'scripts/schema-engine-stub')

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
})
