import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { zipSync } from 'fflate'
import { AppError, ValidationError } from '@/lib/api/errors'
import { isSourceFile } from '@/lib/cad/cad-system'
import { cadSystem } from '@/lib/cad/engines'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { formatDateTime } from '@/lib/format-date'
import type { Library, LibraryFile } from '@/lib/generated/prisma/client'
import { blobStore } from '@/lib/storage/blob-store'
import { pathProblem } from '@/lib/storage/file-path'
import { readProjectZip } from '@/lib/storage/project-zip'
import { changeModel } from '@/lib/configurators/model-changes'

// Libraries installed once for the whole server. Every build sees each under its name
// (`include <BOSL2/std.scad>`), and its content hash is part of every build key, so replacing
// a library never serves a model built with the old one.

const LIBRARY_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/

/** The name a library's folder or archive implies: `BOSL2-master` → `BOSL2`, `MCAD-2019.05` → `MCAD`. */
export function libraryNameOf(folder: string): string {
  return folder.replace(/-(master|main|v?\d[\w.]*)$/i, '')
}

function checkName(name: string): void {
  if (!LIBRARY_NAME.test(name)) {
    throw new ValidationError([
      { path: ['name'], message: 'must be 1 to 64 letters, digits, "_", "." or "-", starting with a letter or digit' },
    ])
  }
}

/** Installs (or replaces) the library `name` with `files` (paths inside its folder). */
export async function installLibrary(name: string, files: Map<string, Uint8Array>) {
  checkName(name)
  if (files.size === 0) throw new ValidationError([{ path: ['body'], message: 'the library holds no files' }])
  for (const [path, data] of files) {
    const problem = pathProblem(path.split('/'))
    if (problem) throw new ValidationError([{ path: ['body', path], message: problem }])
    if (data.byteLength > env.MAX_UPLOAD_BYTES)
      throw new AppError('payload_too_large', `Library file ${path} is larger than ${env.MAX_UPLOAD_BYTES} bytes`)
  }
  const stored: LibraryFile[] = []
  for (const [path, data] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    const blob = await blobStore.put(new Blob([new Uint8Array(data)]).stream(), env.MAX_UPLOAD_BYTES)
    stored.push({ libraryName: name, path, blobHash: blob.hash, size: blob.size })
  }
  const contentHash = createHash('sha256')
    .update(JSON.stringify(stored.map(({ path, blobHash }) => [path, blobHash])))
    .digest('hex')
  const summary = {
    contentHash,
    sizeBytes: stored.reduce((total, file) => total + file.size, 0),
    fileCount: stored.length,
  }
  return changeModel({ kind: 'library', subject: name }, async (tx) => {
    await tx.libraryFile.deleteMany({ where: { libraryName: name } })
    const library = await tx.library.upsert({ where: { name }, create: { name, ...summary }, update: summary })
    await tx.libraryFile.createMany({ data: stored })
    return library
  })
}

/** Installs a zipped library; its name is `name`, else the folder the archive wraps it in. */
export async function installLibraryZip(zip: Uint8Array, name?: string) {
  const { files, wrapper } = readProjectZip(zip)
  const chosen = name ?? (wrapper ? libraryNameOf(wrapper) : undefined)
  if (!chosen)
    throw new ValidationError([
      { path: ['query', 'name'], message: 'is needed: the archive has no single folder to take the name from' },
    ])
  return installLibrary(chosen, files)
}

export function listLibraries() {
  return db.library.findMany({ orderBy: { name: 'asc' } })
}

export function toLibraryEntry({ name, contentHash, sizeBytes, fileCount, updatedAt }: Library) {
  return { name, contentHash, sizeBytes, fileCount, updatedAt: formatDateTime(updatedAt) }
}

export async function removeLibrary(name: string): Promise<void> {
  const notFound = new AppError('not_found', `No library ${name} is installed`)
  // No name holds a NUL, which the database refuses to compare.
  if (name.includes('\0')) throw notFound
  await changeModel({ kind: 'library', subject: name }, async (tx) => {
    if ((await tx.library.deleteMany({ where: { name } })).count === 0) throw notFound
  })
}

/** The configurators whose model files use the library, as their CAD system reads them (`include <BOSL2/std.scad>`). */
export async function configuratorsUsing(name: string): Promise<string[]> {
  const files = await db.configuratorFile.findMany({
    where: { path: { startsWith: 'configurator/' } },
    select: { configuratorId: true, blobHash: true, path: true, configurator: { select: { cadType: true } } },
  })
  const using = new Set<string>()
  for (const { configuratorId, blobHash, path: file, configurator } of files) {
    const system = cadSystem(configurator.cadType)
    if (using.has(configuratorId) || !isSourceFile(system, file)) continue
    if (system.usesLibrary((await blobStore.readBuffer(blobHash)).toString('utf8'), name)) using.add(configuratorId)
  }
  return [...using]
}

/** Every file under `dir`, by its path inside it; symbolic links are refused, as in archives. */
async function readFolder(dir: string): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>()
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name)
    if (entry.isSymbolicLink())
      throw new ValidationError([{ path: [path.relative(dir, full)], message: 'symbolic links are not allowed' }])
    if (entry.isFile())
      files.set(path.relative(dir, full).split(path.sep).join('/'), new Uint8Array(await fs.readFile(full)))
  }
  return files
}

/** A `.zip` or a folder on this machine as one archive, named by the folder unless `name` is given (`npm run library -- add`). */
export async function libraryArchiveFrom(
  source: string,
  name?: string,
): Promise<{ zip: Uint8Array<ArrayBuffer>; name?: string }> {
  if (!(await fs.stat(source)).isDirectory()) return { zip: new Uint8Array(await fs.readFile(source)), name }
  const folder = libraryNameOf(path.basename(path.resolve(source)))
  // In a folder of its own, which installing strips, whatever the library's own top folders are;
  // stored, not deflated: the archive only carries the files to where they are installed.
  const files = Object.fromEntries([...(await readFolder(source))].map(([file, data]) => [`${folder}/${file}`, data]))
  return { zip: zipSync(files, { level: 0 }), name: name ?? folder }
}

/** Installs a library from a `.zip` or a folder on this machine, as the API installs an archive. */
export async function installLibraryFrom(source: string, name?: string) {
  const archive = await libraryArchiveFrom(source, name)
  return installLibraryZip(archive.zip, archive.name)
}
