// How the password-reset mails of src/auth/password-reset.ts are sent: as
// account mail (Email Service where MAILER=cloudflare, the D1 outbox otherwise), like sign-up's.
import type { ResetMail } from '../auth/password-reset'
import { sendAccountMail } from '../notifications/account-mail'
import type { Deps } from '../runtime/deps'

/** Links go to the configured base URL (deps.baseUrl), never to the request's Host. */
export function passwordResetMail(deps: Deps): ResetMail {
  return {
    send: (mail) => sendAccountMail(deps.env, deps.db, mail, Date.now()),
    resetUrl: (token) => `${deps.baseUrl}/password-reset/set?${new URLSearchParams({ t: token })}`,
    keySecret: deps.env.PLATFORM_TOKEN_KEY,
  }
}
