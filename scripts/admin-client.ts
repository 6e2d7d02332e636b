// What the admin commands (`npm run library`, `npm run backup`) share: finding the server that
// holds the embedded database, and signing in to it as an admin.

/** The server named by `--server URL`, else the one holding the embedded database. */
export async function serverUrl(args: string[], usage: () => never): Promise<string | undefined> {
  const at = args.indexOf('--server')
  if (at >= 0) return args[at + 1] ?? usage()
  const { env } = await import('../lib/env')
  if (env.DATABASE_URL) return undefined
  const { embeddedDatabaseHolder } = await import('../lib/embedded-lock')
  // Not a server (another command), or one not listening yet: opening the database then refuses with its name.
  return embeddedDatabaseHolder(env.DATA_DIR)?.url
}

/** An admin's token at `url`: PARAFORM_TOKEN, or a sign-in as ADMIN_EMAIL / ADMIN_PASSWORD. */
export async function adminToken(url: string): Promise<string> {
  const { env } = await import('../lib/env')
  if (env.PARAFORM_TOKEN) return env.PARAFORM_TOKEN
  const { ADMIN_EMAIL: email, ADMIN_PASSWORD: password } = env
  if (!email || !password)
    throw new Error(
      `the server at ${url} holds the database: set ADMIN_EMAIL and ADMIN_PASSWORD (or an admin's PARAFORM_TOKEN) so that this command can sign in`,
    )
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  if (!response.ok) throw new Error(`signing in at ${url} as ${email} failed (${response.status})`)
  return ((await response.json()) as { accessToken: string }).accessToken
}

/** Refuses with the server's own error message. */
export async function okOrThrow(url: string, response: Response): Promise<Response> {
  if (response.ok) return response
  const text = await response.text()
  let message = text
  try {
    message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text
  } catch {
    // not JSON: the text itself
  }
  throw new Error(`${url} answered ${response.status}: ${message}`)
}
