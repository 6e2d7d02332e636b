import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { afterAll, describe, expect, it } from 'vitest'
import { tempDir } from '@/test/support/start-server'

// On a Node that package.json's engines do not allow, every command ends at once with one line
// naming the version found and the versions supported (lib/node-version-guard.ts). The older
// Node: this one when it is older itself, else the machine's own (Debian's 20 on CI, which runs
// the tests on newer ones).

const { engines, scripts } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
  engines: { node: string }
  scripts: Record<string, string>
}
const OLDEST_MAJOR = Number(/\d+/.exec(engines.node)![0])
const versionOf = (node: string) => spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim()
const olderNode = [process.execPath, '/usr/bin/node'].find(
  (node) => fs.existsSync(node) && Number(versionOf(node).split('.')[0]) < OLDEST_MAJOR,
)

/** The TypeScript files the npm scripts run with tsx: server.ts, worker.ts, scripts/*.ts, bench/run.ts. */
const entryFiles = [
  ...new Set(
    Object.values(scripts).flatMap((script) =>
      [...script.matchAll(/\btsx\b[^&;|]*?\s([\w./-]+\.ts)\b/g)].map((match) => match[1]!),
    ),
  ),
]

const dataDir = path.join(tempDir(), 'data')
afterAll(() => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }))

describe('an unsupported Node', () => {
  it('is checked first by every file an npm script runs, before any other import loads', () => {
    expect(entryFiles).toEqual(
      expect.arrayContaining([
        'server.ts',
        'worker.ts',
        'scripts/build-if-changed.ts',
        'scripts/library.ts',
        'scripts/backup.ts',
        'scripts/restore.ts',
      ]),
    )
    for (const file of entryFiles) {
      const [first] = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, false).importedFiles
      expect(path.join(path.dirname(file), first!.fileName), file).toBe('lib/node-version-guard')
    }
  })

  const commands: [name: string, args: string[]][] = [
    ['npm start (its build step)', ['scripts/build-if-changed.ts']],
    ['npm start (the server)', ['server.ts']],
    ['npm run worker', ['--conditions=react-server', 'worker.ts']],
    ['npm run library -- list', ['scripts/library.ts', 'list']],
  ]
  const found = olderNode && versionOf(olderNode)
  const on = olderNode
    ? `Node ${found} (${olderNode})`
    : `no Node older than ${OLDEST_MAJOR} here (neither this one nor /usr/bin/node): skipped`

  describe.skipIf(!olderNode).each(commands)(`%s on ${on}`, (_name, args) => {
    it('ends with exit code 1 and one line naming the version found and the versions supported, having done nothing', () => {
      // A build that would fail, should the build step get past the check.
      const run = spawnSync(olderNode!, ['--import', 'tsx', ...args], {
        env: { ...process.env, DATA_DIR: dataDir, PARAFORM_BUILD_COMMAND: 'false' },
        encoding: 'utf8',
        timeout: 60_000,
      })
      expect(run.stderr).toBe(
        `paraform: Node ${found} is not supported: use Node 22 (22.13 or later), 24 or 26 (package.json engines: ${engines.node})\n`,
      )
      expect(run.stdout).toBe('')
      expect(run.status).toBe(1)
      expect(fs.existsSync(dataDir)).toBe(false)
    })
  })
})
