// The first import of every command's entry file (server.ts, worker.ts, scripts/): on a Node that
// package.json's engines do not allow, the command ends with one line before anything else loads.
import fs from 'node:fs'
import { failStartUp } from './start-up'

interface Line {
  major: number
  minor: number
  patch: number
}

/** engines.node written as `^major[.minor[.patch]]` alternatives joined by `||`, the only form read here. */
function linesOf(range: string): Line[] {
  return range.split('||').map((alternative) => {
    const match = /^\s*\^(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(alternative)
    if (!match)
      throw new Error(`package.json engines.node: "${alternative.trim()}" is not of the form ^major[.minor[.patch]]`)
    const [, major, minor = '0', patch = '0'] = match
    return { major: Number(major), minor: Number(minor), patch: Number(patch) }
  })
}

function allows(line: Line, version: string): boolean {
  const [major, minor, patch] = version.split('.').map(Number) as [number, number, number]
  return major === line.major && (minor > line.minor || (minor === line.minor && patch >= line.patch))
}

/** `22 (22.13 or later), 24 or 26` */
function named(lines: Line[]): string {
  const names = lines.map(({ major, minor, patch }) =>
    minor || patch ? `${major} (${major}.${minor}${patch ? `.${patch}` : ''} or later)` : `${major}`,
  )
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0]!
}

const range = (
  JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { engines: { node: string } }
).engines.node
const lines = linesOf(range)
const found = process.versions.node
if (!lines.some((line) => allows(line, found)))
  failStartUp(`Node ${found} is not supported: use Node ${named(lines)} (package.json engines: ${range})`)
