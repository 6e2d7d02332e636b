import { AppError } from '@/lib/api/errors'
import type { ModelFile } from '@/lib/cad/engine'
import { db } from '@/lib/db'
import { recentReads } from '@/lib/recent-reads'
import { blobStore, type StoredFile } from '@/lib/storage/blob-store'

// An installed library's files as builds read them: each build names the versions it uses.

/** A library as builds know it: which version of which library. */
export interface LibraryRef {
  name: string
  contentHash: string
  /** A snapshot's copy of that version's files (inside its folder), which outlives the installed library. */
  files?: StoredFile[]
}

/** The files of these library versions, each under its library's folder (`BOSL2/std.scad`). */
export async function readLibraryFiles(libraries: LibraryRef[]): Promise<ModelFile[]> {
  const files = await Promise.all(libraries.map(readLibrary))
  return files.flat()
}

// Library versions read lately: every build places every library.
const readLibrary = recentReads(
  16,
  ({ name, contentHash }: LibraryRef) => `${name}@${contentHash}`,
  async (library) => {
    const files = library.files ?? (await installedFiles(library))
    return Promise.all(
      files.map(async ({ path, blobHash }) => ({
        path: `${library.name}/${path}`,
        data: new Uint8Array(await blobStore.readBuffer(blobHash)),
      })),
    )
  },
)

/** The files of this version of an installed library; 503 when it was replaced meanwhile. */
export async function installedFiles({ name, contentHash }: LibraryRef): Promise<StoredFile[]> {
  const library = await db.library.findUnique({
    where: { name },
    include: { files: { select: { path: true, blobHash: true }, orderBy: { path: 'asc' } } },
  })
  if (library?.contentHash !== contentHash)
    throw new AppError('service_unavailable', `The library ${name} changed during the build; try again`)
  return library.files
}
