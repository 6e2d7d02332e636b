// npm run bench: every benchmark, each against a baseline measured in the same run.
// It runs with the react-server condition: the benches launch Chromium as the server renderer
// does (lib/render/server, which imports server-only).
import '../lib/node-version-guard'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'paraform-bench-'))
process.env.SEED_DEMO = 'true'
process.env.ADMIN_EMAIL = 'bench@example.test'
process.env.ADMIN_PASSWORD = 'bench password'
delete process.env.DATABASE_URL

const { prepareDatabase } = await import('@/lib/set-up-database')
const { db } = await import('@/lib/db')
const { login } = await import('@/lib/auth/login')
const { benchForeground } = await import('./foreground')
const { benchEngines } = await import('./engines')
const { benchSessions } = await import('./sessions')
const { benchCrowd, benchDrag } = await import('./drag')
const { benchHttp } = await import('./http')
const { benchAttack } = await import('./attack')
const { benchRender } = await import('./render')
const { benchCustomer } = await import('./customer')
const { benchFirstOpen } = await import('./first-open')
const { benchFirstModel } = await import('./first-model')
const { benchGrowth } = await import('./growth')
const { benchReleases } = await import('./releases')
const { benchReplicad } = await import('./replicad')
const { benchCrowdOverHttp } = await import('./crowd')
const { benchSlicing } = await import('./slicing')
const { benchRefusals } = await import('./refusals')
const { benchAr } = await import('./ar')

await prepareDatabase()
const { accessToken } = (
  await login({ email: 'bench@example.test', password: 'bench password', clientAddress: 'bench' })
).grant
const configurators = await db.configurator.findMany()
const demos = JSON.parse(fs.readFileSync('demo/demos.json', 'utf8')) as { slug: string; name: string }[]
const ids = new Map(demos.map((demo) => [demo.slug, configurators.find((c) => c.name === demo.name)!.id]))

console.log(
  `# Paraform benchmarks (${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version})`,
)
// Each section by name, in order; `npm run bench -- drag crowd` runs only those named.
const sections: [string, () => Promise<unknown>][] = [
  ['crowd', () => benchCrowdOverHttp()],
  ['foreground', () => benchForeground()],
  ['engines', () => benchEngines()],
  ['sessions', () => benchSessions(ids, accessToken)],
  ['drag', () => benchDrag(ids, accessToken, 'embedded database, builds in this process')],
  ['drag-crowd', () => benchCrowd(ids, accessToken)],
  ['http', () => benchHttp()],
  ['attack', () => benchAttack(ids, accessToken)],
  ['render', () => benchRender()],
  ['customer', () => benchCustomer()],
  ['first-open', () => benchFirstOpen(accessToken)],
  ['first-model', () => benchFirstModel()],
  ['growth', () => benchGrowth(accessToken)],
  ['releases', () => benchReleases(ids.get('name-tag')!, accessToken)],
  ['queue', () => benchQueue()],
  ['replicad', () => benchReplicad()],
  ['slicing', () => benchSlicing()],
  ['refusals', () => benchRefusals()],
  ['ar', () => benchAr()],
]
const chosen = process.argv.slice(2)
const unknown = chosen.filter((name) => !sections.some(([section]) => section === name))
if (unknown.length > 0) {
  console.error(
    `bench: no section ${unknown.join(', ')}; the sections are ${sections.map(([name]) => name).join(', ')}`,
  )
  process.exit(1)
}
for (const [name, run] of sections) if (chosen.length === 0 || chosen.includes(name)) await run()
process.exit(0)

/** bench/queue.ts in a process of its own, on a fresh database of this machine's PostgreSQL. */
async function benchQueue(): Promise<void> {
  const { createTestDatabase, dropTestDatabase } = await import('../test/support/postgres')
  const databaseUrl = await createTestDatabase().catch((error: Error) =>
    console.log(`\n## Build queue: skipped, no PostgreSQL (${error.message})`),
  )
  if (!databaseUrl) return
  const child = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'bench/queue.ts'], {
    // No test drives of the seeded demos: they would build beside the builds it times.
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'paraform-bench-queue-')),
      PREPARE_MODELS: 'false',
    },
    stdio: 'inherit',
  })
  await new Promise((resolve) => child.on('exit', resolve))
  await dropTestDatabase(databaseUrl)
}
