import path from 'node:path'
import { readZip } from '@/lib/storage/read-zip'

/** What desktop archivers add beside a project: macOS resource forks and folder settings. */
function isArchiverLitter(name: string): boolean {
  return name.startsWith('__MACOSX/') || ['.DS_Store', 'Thumbs.db', 'desktop.ini'].includes(path.posix.basename(name))
}

/**
 * The files of a zipped project or library (hostile archives refused by readZip), without
 * archiver litter, and without the one folder that wraps them all when a folder was zipped
 * (a GitHub download, "Compress folder"): `wrapper` names that folder.
 */
export function readProjectZip(zip: Uint8Array): { files: Map<string, Uint8Array>; wrapper: string | null } {
  const entries = readZip(zip, { include: (name) => !isArchiverLitter(name) })
  const names = [...entries.keys()]
  const top = names[0]?.split('/')[0]
  if (top === undefined || !names.every((name) => name.startsWith(`${top}/`))) return { files: entries, wrapper: null }
  return { files: new Map([...entries].map(([name, data]) => [name.slice(top.length + 1), data])), wrapper: top }
}
