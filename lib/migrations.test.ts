import fs from 'node:fs'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SqlConnection } from '@/lib/db'
import { applyMigrations, MIGRATIONS_DIR } from '@/lib/migrations'
import { createTestDatabase, dropTestDatabase } from '@/test/support/postgres'

async function connect(url: string): Promise<SqlConnection> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  return {
    exec: async (sql) => void (await client.query(sql)),
    query: async <T>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T[],
    close: () => client.end(),
  }
}

describe('applyMigrations on PostgreSQL', () => {
  let url: string
  beforeAll(async () => {
    url = await createTestDatabase()
  })
  afterAll(() => dropTestDatabase(url))

  it('applies each migration exactly once when several instances start at the same moment', async () => {
    const expected = fs
      .readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort()
    const connections = await Promise.all([1, 2, 3, 4].map(() => connect(url)))
    const results = await Promise.all(connections.map((connection) => applyMigrations(connection)))
    expect(results.flat().sort()).toEqual(expected)

    const [check] = connections
    const rows = await check!.query<{ migration_name: string; finished_at: Date | null }>(
      'SELECT migration_name, finished_at FROM "_prisma_migrations" ORDER BY migration_name',
    )
    expect(rows.map((row) => row.migration_name)).toEqual(expected)
    expect(rows.every((row) => row.finished_at !== null)).toBe(true)
    expect(await applyMigrations(check!)).toEqual([])
    await Promise.all(connections.map((connection) => connection.close()))
  })

  it('refuses to start when an applied migration was edited afterwards', async () => {
    const connection = await connect(url)
    await connection.exec(`UPDATE "_prisma_migrations" SET checksum = 'edited'`)
    await expect(applyMigrations(connection)).rejects.toThrow(/was changed after it was applied/)
    await connection.close()
  })
})
