import fs from 'node:fs'
import path from 'node:path'
import { env } from '@/lib/env'

/** Where the first start writes the admin's generated password (no ADMIN_PASSWORD given). */
export function adminPasswordFile(): string {
  return path.join(env.DATA_DIR, 'admin-password.txt')
}

/** The file, while it is there: the sign-in page names it until the admin deletes it. */
export function pendingAdminPasswordFile(): string | null {
  const file = adminPasswordFile()
  return fs.existsSync(file) ? file : null
}
