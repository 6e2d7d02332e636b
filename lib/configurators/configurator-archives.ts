import { AppError, ValidationError } from '@/lib/api/errors'
import { findOwnedConfigurator, type OwnedConfiguratorOptions } from '@/lib/configurators/configurators'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { blobStore } from '@/lib/storage/blob-store'
import { contentTypeFor } from '@/lib/configurators/content-type'
import { readProjectZip } from '@/lib/storage/project-zip'
import { changeModel } from '@/lib/configurators/model-changes'
import { type CadSystem, isSourceFile } from '@/lib/cad/cad-system'
import { cadSystem } from '@/lib/cad/engines'

const ROOT = 'configurator/'

/**
 * The project's main file: the one asked for, else the configurator's when the archive has it,
 * else the only source file of its CAD system at the top; otherwise 409 listing the candidates.
 */
function chooseMainFile(system: CadSystem, paths: string[], current: string, asked: string | undefined): string {
  if (asked !== undefined) {
    if (!paths.includes(asked))
      throw new ValidationError([{ path: ['query', 'mainFile'], message: `the archive has no file ${asked}` }])
    return asked
  }
  if (paths.includes(current)) return current
  const sources = paths.filter((file) => isSourceFile(system, file)).sort()
  const atTop = sources.filter((file) => !file.includes('/'))
  if (atTop.length === 1) return atTop[0]!
  const candidates = atTop.length > 0 ? atTop : sources
  const kind = `${system.sourceExtensions.join(' or ')} file`
  if (candidates.length === 0) throw new ValidationError([{ path: ['body'], message: `the archive holds no ${kind}` }])
  throw new AppError(
    'conflict',
    `The archive has no ${current} and more than one ${kind} could be its main file: ${candidates.join(', ')}; choose one with ?mainFile=`,
    {},
    candidates.map((candidate) => ({ path: ['query', 'mainFile'], message: candidate })),
  )
}

export interface UploadArchiveOptions extends OwnedConfiguratorOptions {
  zip: Uint8Array
  /** Replace the whole configurator folder instead of only the archive's paths. */
  replace: boolean
  mainFile?: string
}

/**
 * Unpacks a project zip into the configurator folder, keeping its folder structure, and makes
 * its main file the configurator's. Hostile archives are refused by readZip before anything is
 * stored; the files change in one transaction, so a failure leaves the configurator as it was.
 */
export async function uploadConfiguratorArchive({
  configuratorId,
  userId,
  zip,
  replace,
  mainFile,
}: UploadArchiveOptions) {
  const configurator = await findOwnedConfigurator({ configuratorId, userId })
  const { files } = readProjectZip(zip)
  for (const [name, data] of files) {
    if (data.byteLength > env.MAX_UPLOAD_BYTES)
      throw new AppError(
        'payload_too_large',
        `Zip entry ${JSON.stringify(name)} is larger than ${env.MAX_UPLOAD_BYTES} bytes`,
      )
  }
  if (files.size === 0) throw new ValidationError([{ path: ['body'], message: 'the archive holds no files' }])
  const chosen = chooseMainFile(cadSystem(configurator.cadType), [...files.keys()], configurator.mainFile, mainFile)

  const stored = await Promise.all(
    [...files].map(async ([name, data]) => {
      const blob = await blobStore.put(new Blob([new Uint8Array(data)]).stream(), env.MAX_UPLOAD_BYTES)
      return {
        configuratorId,
        path: `${ROOT}${name}`,
        blobHash: blob.hash,
        size: blob.size,
        contentType: contentTypeFor(name),
      }
    }),
  )
  await changeModel({ kind: 'model', subject: configuratorId }, async (tx) => {
    await tx.configuratorFile.deleteMany({
      where: replace
        ? { configuratorId, path: { startsWith: ROOT } }
        : { configuratorId, path: { in: stored.map((file) => file.path) } },
    })
    await tx.configuratorFile.createMany({ data: stored })
    await tx.configurator.update({ where: { id: configuratorId }, data: { mainFile: chosen } })
  })
  return {
    mainFile: chosen,
    files: await db.configuratorFile.findMany({
      where: { configuratorId, path: { in: stored.map((file) => file.path) } },
      orderBy: { path: 'asc' },
    }),
  }
}
