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

function runPrefix(): string {
  return `paraform_test_${process.env.PARAFORM_TEST_RUN ?? 'adhoc'}_`
}

/** A new, empty database of this test run; answers its URL. */
export async function createTestDatabase(): Promise<string> {
  const name = `${runPrefix()}${randomBytes(6).toString('hex')}`
  await withAdmin((client) => client.query(`CREATE DATABASE ${name}`))
  const url = new URL(ADMIN_DATABASE_URL)
  url.pathname = `/${name}`
  return url.toString()
}

export async function dropTestDatabase(databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1)
  await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
}

/** Drops every database this test run created. */
export async function dropTestDatabases(): Promise<void> {
  await withAdmin(async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [runPrefix()],
    )
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`)
  })
}
