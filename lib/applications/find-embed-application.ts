import { db } from '@/lib/db'

/** The application an embed page is for, with the configurator it shows; null for an unknown key. */
export async function findEmbedApplication(key: string) {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(key)) return null
  return db.application.findUnique({
    where: { key },
    select: { domain: true, secureModel: true, configurator: { select: { id: true, name: true, description: true } } },
  })
}
