// What the sign-up pages need beyond src/auth/accounts.ts: how its mail is sent
// (src/notifications/account-mail.ts) and, in local development, the mail the "check your inbox"
// page shows to the browser that signed up.
import type { SignUpMail } from '../auth/accounts'
import { listOutboxTo } from '../db/notifications'
import { sendAccountMail } from '../notifications/account-mail'
import type { Deps } from '../runtime/deps'

/** Links go to the configured base URL (deps.baseUrl), never to the request's Host. */
export function signUpMail(deps: Deps, next: string): SignUpMail {
  return {
    send: (mail) => sendAccountMail(deps.env, deps.db, mail, Date.now()),
    confirmUrl: (token) => `${deps.baseUrl}/signup/confirm?${new URLSearchParams({ t: token, ...(next === '/' ? {} : { next }) })}`,
    sealKey: deps.env.PLATFORM_TOKEN_KEY,
  }
}

/** The mails written to `address` since `since` (the outbox: local development only). */
export async function localMailTo(deps: Deps, address: string, since: number): Promise<{ subject: string; body: string }[]> {
  const rows = await listOutboxTo(deps.db, address, since)
  return rows.map((row) => ({ subject: row.subject, body: row.body }))
}
