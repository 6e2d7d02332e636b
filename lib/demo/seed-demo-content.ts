import fs from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import { registerApplication } from '@/lib/applications/applications'
import { CAD_TYPES } from '@/lib/cad/engines'
import { uploadConfiguratorFile } from '@/lib/configurators/configurator-files'
import { createConfigurator } from '@/lib/configurators/configurators'
import { ZExtraSettings } from '@/lib/configurators/schemas'
import { db } from '@/lib/db'

const DEMO_DIR = path.join(process.cwd(), 'demo')
const SEEDED_SETTING = 'demo-content-seeded'

const ZDemos = z.array(
  z.object({
    slug: z.string(),
    mainFile: z.string(),
    cadType: z.enum(CAD_TYPES).optional(),
    name: z.string(),
    description: z.string(),
    extraSettings: ZExtraSettings,
  }),
)

/**
 * Gives a new installation the demo configurators of demo/ (owned by the first admin, each
 * with a public demo application for localhost), once: deleting them later does not bring them back.
 */
export async function seedDemoContent(): Promise<string[]> {
  const { count } = await db.setting.createMany({
    data: [{ key: SEEDED_SETTING, value: new Date().toISOString() }],
    skipDuplicates: true,
  })
  if (count === 0) return []
  const admin = await db.user.findFirstOrThrow({ where: { role: 'admin' }, orderBy: { createdAt: 'asc' } })
  const demos = ZDemos.parse(JSON.parse(await fs.readFile(path.join(DEMO_DIR, 'demos.json'), 'utf8')))
  const ids: string[] = []
  for (const demo of demos) {
    const { slug, ...fields } = demo
    const configurator = await createConfigurator({ userId: admin.id, input: fields })
    // The model and whatever sits beside it, e.g. its preset file.
    for (const name of await fs.readdir(path.join(DEMO_DIR, slug))) {
      const source = await fs.readFile(path.join(DEMO_DIR, slug, name))
      await uploadConfiguratorFile({
        configuratorId: configurator.id,
        userId: admin.id,
        path: `configurator/${name}`,
        body: new Blob([source]).stream(),
        declaredSize: source.byteLength,
      })
    }
    const application = await registerApplication({
      configuratorId: configurator.id,
      userId: admin.id,
      input: {
        name: `${demo.name} demo shop`,
        domain: 'localhost',
        licenseUUID: 'demo',
        secureInit: false,
        secureModel: false,
      },
    })
    await db.application.update({ where: { id: application.id }, data: { publicDemo: true } })
    ids.push(configurator.id)
  }
  return ids
}
