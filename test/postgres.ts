import { randomBytes } from 'node:crypto'
import pg from 'pg'

/** The server tests create their databases on; override for another PostgreSQL. */
export const ADMIN_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres'

async function withAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

/** A new, empty database; answers its URL. */
export async function createTestDatabase(): Promise<string> {
  const name = `paraform_test_${randomBytes(6).toString('hex')}`
  await withAdmin((client) => client.query(`CREATE DATABASE ${name}`))
  const url = new URL(ADMIN_DATABASE_URL)
  url.pathname = `/${name}`
  return url.toString()
}

export async function dropTestDatabase(databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1)
  await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
}
