import { CAD_ENGINES } from '@/lib/cad/engines'
import type { CreateConfiguratorInput } from '@/lib/configurators/schemas'
import { db } from '@/lib/db'
import type { Prisma } from '@/lib/generated/prisma/client'
import { RENDERER_VERSIONS } from '@/lib/render/renderers'

export interface CreateConfiguratorOptions {
  userId: string
  input: CreateConfiguratorInput
}

export async function createConfigurator({ userId, input }: CreateConfiguratorOptions) {
  const cadType = input.cadType ?? 'openscad'
  return db.configurator.create({
    data: {
      userId,
      name: input.name,
      description: input.description ?? '',
      mainFile: input.mainFile,
      cadType,
      cadVersion: input.cadVersion ?? CAD_ENGINES[cadType].at(-1)!,
      rendererType: input.rendererType ?? 'webgl',
      rendererVersion: input.rendererVersion ?? RENDERER_VERSIONS[0],
      extraSettings: (input.extraSettings ?? {}) as Prisma.InputJsonObject,
    },
  })
}
