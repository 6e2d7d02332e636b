import { randomBytes } from 'node:crypto'
import { dropTestDatabases } from './postgres'

/** Names this run's PostgreSQL test databases (inherited by the test processes) and drops them afterwards. */
export default function setup() {
  process.env.PARAFORM_TEST_RUN = randomBytes(4).toString('hex')
  return () => dropTestDatabases()
}
