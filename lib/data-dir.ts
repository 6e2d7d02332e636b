import fs from 'node:fs/promises'
import path from 'node:path'

/** Fails with a one-line reason when DATA_DIR cannot be created or written. */
export async function checkDataDir(dir: string): Promise<void> {
  const probe = path.join(dir, `.write-probe-${process.pid}`)
  try {
    await fs.mkdir(dir, { recursive: true })
    await fs.writeFile(probe, '')
    await fs.rm(probe)
  } catch (error) {
    throw new Error(
      `DATA_DIR ${dir} is not writable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      { cause: error },
    )
  }
}
