import type { TestProject } from 'vitest/node'
import { createTestDatabase, dropTestDatabase } from './postgres'

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string
  }
}

/** One fresh PostgreSQL database for the whole run; dropped afterwards. */
export default async function setup(project: TestProject) {
  const databaseUrl = await createTestDatabase()
  project.provide('databaseUrl', databaseUrl)
  return () => dropTestDatabase(databaseUrl)
}
