// Runs once when the Next.js server starts, inside the app's own modules (where route handlers
// schedule deliveries too): webhook deliveries left pending by the last run go out again.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  await (await import('@/lib/webhooks/webhook-queue')).resumeWebhooks()
}
