import { type ChildProcess, spawn } from 'node:child_process'

/** `count` build worker processes (`npm run worker`, one slot each) on `env` over this process's, once each says it runs. */
export async function startWorkerProcesses(count: number, env: Record<string, string> = {}): Promise<ChildProcess[]> {
  const workers = Array.from({ length: count }, () =>
    spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'worker.ts'], {
      env: { ...process.env, ...env, BUILD_WORKERS: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  )
  await Promise.all(
    workers.map(
      (worker) =>
        new Promise<void>((resolve) => {
          let output = ''
          worker.stdout.on('data', (chunk) => (output += chunk) && output.includes('running up to') && resolve())
        }),
    ),
  )
  return workers
}

/** Stops the workers (SIGTERM: they finish or hand back their builds) and waits for them to exit. */
export async function stopWorkerProcesses(workers: ChildProcess[]): Promise<void> {
  await Promise.all(workers.map((worker) => new Promise((resolve) => worker.on('exit', resolve).kill('SIGTERM'))))
}
