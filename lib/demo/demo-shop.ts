import { registerApplication } from '@/lib/applications/applications'
import { db } from '@/lib/db'
import { newWebhookSecret } from '@/lib/webhooks/secret'
import { forgetTokens } from '@/lib/auth/tokens'

const DEMO_CONFIGURATOR = 'Name tag'

export interface DemoShopApplication {
  key: string
  secretKey: string
  webhookSecret: string
}

/**
 * The demo shop's application on the demo name tag, made on the first start and found again
 * later: framed from localhost:<port>, its webhook the shop's back end there, its finalized
 * models for the server token only. Null when the name tag demo is not there.
 */
export async function ensureDemoShopApplication(port: number): Promise<DemoShopApplication | null> {
  const configurator = await db.configurator.findFirst({
    where: { name: DEMO_CONFIGURATOR },
    orderBy: { createdAt: 'asc' },
  })
  if (!configurator) return null
  const domain = `localhost:${port}`
  const owned = { configuratorId: configurator.id, userId: configurator.userId }
  const application =
    (await db.application.findFirst({ where: { configuratorId: configurator.id, domain } })) ??
    (await registerApplication({
      ...owned,
      input: { name: 'Demo shop', domain, licenseUUID: 'demo', secureInit: false, secureModel: true },
    }))
  // Its URL is allowed by construction: lib/env.ts adds the demo shop's host:port to WEBHOOK_ALLOWED_HOSTS.
  const webhookSecret = application.webhookSecret ?? newWebhookSecret()
  await db.application.update({
    where: { id: application.id },
    data: { webhookUrl: `http://${domain}/webhook`, webhookSecret },
  })
  await forgetTokens()
  return { key: application.key, secretKey: application.secretKey, webhookSecret }
}
