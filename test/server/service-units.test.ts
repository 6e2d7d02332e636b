import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CAD_SETTING_NAMES } from '@/lib/cad/engines'
import { SETTING_NAMES } from '@/lib/env'

// The systemd units of deploy/ (docs/deploy.md), checked by systemd's own systemd-analyze. Copies
// have the install folder /opt/paraform replaced by this checkout; the commands they start must
// exist here too (/usr/bin/node, /bin/sh, /usr/bin/find), as verify checks them.

const ROOT = path.resolve(import.meta.dirname, '../..')
const INSTALL_DIR = '/opt/paraform'
const DATA_DIR = '/var/lib/paraform'
const SERVICES = ['paraform-web.service', 'paraform-worker.service', 'paraform-backup.service']
const BUILDING = ['paraform-web.service', 'paraform-worker.service']
const UNITS = [...SERVICES, 'paraform-backup.timer']
const ANALYZE = '/usr/bin/systemd-analyze'
const ENV_EXAMPLE = fs.readFileSync(path.join(ROOT, 'deploy/paraform.env.example'), 'utf8')
const SHUTDOWN_TIMEOUT_SECONDS = Number(/^SHUTDOWN_TIMEOUT_SECONDS=(\d+)$/m.exec(ENV_EXAMPLE)?.[1])

const copies = fs.mkdtempSync(path.join(os.tmpdir(), 'paraform-units-'))
for (const unit of UNITS) copyUnit(unit, (text) => text)
afterAll(() => fs.rmSync(copies, { recursive: true, force: true }))

function copyUnit(unit: string, change: (text: string) => string, dir = copies): string {
  const text = change(fs.readFileSync(path.join(ROOT, 'deploy', unit), 'utf8')).replaceAll(INSTALL_DIR, ROOT)
  fs.writeFileSync(path.join(dir, unit), text)
  return path.join(dir, unit)
}

/** systemd-analyze's output lines about our units: warnings of verify (unknown keys, bad values, missing commands). */
function analyze(...args: string[]): { status: number | null; lines: string[]; stdout: string } {
  const result = spawnSync(ANALYZE, args, {
    encoding: 'utf8',
    env: { ...process.env, SYSTEMD_PAGER: '', SYSTEMD_COLORS: '0' },
  })
  if (result.error)
    throw new Error(`${ANALYZE} cannot run (${result.error.message}): Debian's systemd package installs it`)
  const lines = `${result.stdout}\n${result.stderr}`.split('\n').filter((line) => line.includes('paraform'))
  return { status: result.status, lines, stdout: result.stdout }
}

/** The [Service] section's settings, each with every value it is given. */
function serviceSettings(unit: string): Map<string, string[]> {
  const settings = new Map<string, string[]>()
  let section = ''
  for (const line of fs.readFileSync(path.join(ROOT, 'deploy', unit), 'utf8').split('\n')) {
    const header = /^\[(\w+)\]$/.exec(line)
    if (header) section = header[1]!
    const setting = /^(\w+)=(.*)$/.exec(line)
    if (section === 'Service' && setting) settings.set(setting[1]!, [...(settings.get(setting[1]!) ?? []), setting[2]!])
  }
  return settings
}

const one = (settings: Map<string, string[]>, key: string) => settings.get(key)?.at(-1)

describe('deploy/ systemd units', () => {
  it('pass systemd-analyze verify without a warning', () => {
    const { status, lines } = analyze('verify', ...UNITS.map((unit) => path.join(copies, unit)))
    expect(lines).toEqual([])
    expect(status).toBe(0)
  })

  it('would show a misspelt directive, a bad value or a missing command', () => {
    const broken = fs.mkdtempSync(path.join(copies, 'broken-'))
    const file = copyUnit(
      'paraform-web.service',
      (text) =>
        text
          .replace('ProtectSystem=strict', 'ProtectSystem=stricter\nProtectSystm=yes')
          .replace('/usr/bin/node', '/usr/bin/no-node'),
      broken,
    )
    const { lines } = analyze('verify', file)
    expect(lines.join('\n')).toMatch(/protect system value.*stricter/)
    expect(lines.join('\n')).toMatch(/Unknown key 'ProtectSystm'/)
    expect(lines.join('\n')).toMatch(/\/usr\/bin\/no-node is not executable/)
  })

  it.each(SERVICES)('%s runs as paraform on its environment file, hardened', (unit) => {
    const settings = serviceSettings(unit)
    expect(one(settings, 'User')).toBe('paraform')
    expect(one(settings, 'Group')).toBe('paraform')
    expect(one(settings, 'EnvironmentFile')).toBe('/etc/paraform/paraform.env')
    expect(one(settings, 'Restart')).toBe('on-failure')
    expect(one(settings, 'WorkingDirectory')).toBe(INSTALL_DIR)
    expect(one(settings, 'StateDirectory')?.split(' ')).toContain('paraform')
    expect(one(settings, 'ReadWritePaths')?.split(' ')).toContain(DATA_DIR)
    expect(settings.get('Environment')?.join(' ')).toContain(`DATA_DIR=${DATA_DIR}`)
    for (const [key, value] of Object.entries({
      NoNewPrivileges: 'yes',
      ProtectSystem: 'strict',
      ProtectHome: 'yes',
      PrivateTmp: 'yes',
      PrivateDevices: 'yes',
      ProtectControlGroups: 'yes',
      ProtectKernelModules: 'yes',
      LockPersonality: 'yes',
      RestrictSUIDSGID: 'yes',
      CapabilityBoundingSet: '',
      SystemCallErrorNumber: 'EPERM',
      // Node's JIT and WebAssembly write the code they run.
      MemoryDenyWriteExecute: 'no',
    }))
      expect(one(settings, key), key).toBe(value)
    expect(one(settings, 'SystemCallFilter')).toMatch(/^@system-service\b/)
    expect(one(settings, 'RestrictAddressFamilies')?.split(' ')).toEqual(
      expect.arrayContaining(['AF_UNIX', 'AF_INET', 'AF_INET6']),
    )
  })

  it.each(BUILDING)(
    '%s lets the native engine sandbox each build (bubblewrap) and stops as SHUTDOWN_TIMEOUT_SECONDS allows',
    (unit) => {
      const settings = serviceSettings(unit)
      expect(one(settings, 'RestrictNamespaces')?.split(' ').sort()).toEqual([
        'cgroup',
        'ipc',
        'mnt',
        'net',
        'pid',
        'user',
        'uts',
      ])
      expect(one(settings, 'ProtectKernelTunables')).toBe('no')
      expect(one(settings, 'ProtectKernelLogs')).toBe('no')
      expect(one(settings, 'SystemCallFilter')?.split(' ')).toContain('@mount')
      expect(one(settings, 'RestrictAddressFamilies')?.split(' ')).toContain('AF_NETLINK')
      expect(one(settings, 'KillMode')).toBe('mixed')
      expect(one(settings, 'KillSignal')).toBe('SIGTERM')
      expect(Number(one(settings, 'TimeoutStopSec'))).toBeGreaterThan(SHUTDOWN_TIMEOUT_SECONDS)
    },
  )

  it('the backup unit builds nothing and keeps the kernel and namespaces shut', () => {
    const settings = serviceSettings('paraform-backup.service')
    for (const key of ['RestrictNamespaces', 'ProtectKernelTunables', 'ProtectKernelLogs'])
      expect(one(settings, key), key).toBe('yes')
    expect(one(settings, 'Type')).toBe('oneshot')
  })

  // node --import tsx, not tsx's CLI: that relays a signal through a parent which kills the server
  // outright when its event loop is busy for 30 ms, instead of letting it shut down in order.
  it('run what the npm scripts run, on entry files that exist', () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>
    }
    const tsxArguments = (script: string) => script.replace(/^.*\btsx /, '').split(' ')
    const nodeArguments = (unit: string) =>
      one(serviceSettings(unit), 'ExecStart')!
        .replace(/^\/usr\/bin\/node /, '')
        .replace('--import tsx ', '')
        .split(' ')
    expect(scripts.start).toMatch(/^NODE_ENV=production exec node --import tsx /)
    expect(nodeArguments('paraform-web.service')).toEqual(tsxArguments(scripts.start!))
    expect(scripts.worker).toMatch(/^NODE_ENV=production exec node --import tsx /)
    expect(nodeArguments('paraform-worker.service')).toEqual(tsxArguments(scripts.worker!))
    for (const unit of BUILDING)
      expect(serviceSettings(unit).get('Environment')?.join(' ')).toContain('NODE_ENV=production')
    expect(one(serviceSettings('paraform-backup.service'), 'ExecStart')).toContain(
      `/usr/bin/node --import tsx ${tsxArguments(scripts.backup!).join(' ')} "/var/lib/paraform-backups/`,
    )
    for (const file of ['server.ts', 'worker.ts', 'scripts/backup.ts', 'node_modules/tsx/package.json'])
      expect(fs.existsSync(path.join(ROOT, file)), file).toBe(true)
  })

  it('the example environment file names only settings Paraform reads', () => {
    const names = [...ENV_EXAMPLE.matchAll(/^#?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!)
    expect(names).toEqual(
      expect.arrayContaining([
        'DATABASE_URL',
        'S3_BUCKET',
        'ADMIN_EMAIL',
        'METRICS_TOKEN',
        'METRICS_PORT',
        'LOG_LEVEL',
        'SHUTDOWN_TIMEOUT_SECONDS',
      ]),
    )
    // The AWS SDK reads the bucket's credentials itself.
    expect(
      names.filter((name) => ![...SETTING_NAMES, ...CAD_SETTING_NAMES].includes(name) && !name.startsWith('AWS_')),
    ).toEqual([])
    // DATA_DIR is the units' StateDirectory, set in the units.
    expect(names).not.toContain('DATA_DIR')
  })

  it.each(SERVICES)('%s scores at most MEDIUM in systemd-analyze security', (unit) => {
    const { status, stdout } = analyze('security', '--offline=yes', path.join(copies, unit))
    const [, exposure, level] = /Overall exposure level for \S+: ([\d.]+) (\w+)/.exec(stdout) ?? []
    expect(status).toBe(0)
    // Then EXPOSED (from 7.5), UNSAFE and DANGEROUS.
    expect(level, `${unit}: ${exposure} ${level}`).toMatch(/^(PERFECT|SAFE|OK|MEDIUM)$/)
  })
})
