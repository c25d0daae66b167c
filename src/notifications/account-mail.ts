// Mail about the account itself (sign-up confirmation, "someone tried to sign up"): not alerts,
// so no unsubscribe footer. Production (MAILER=cloudflare) sends it through Email Service; local
// development and tests keep it in the D1 outbox, where the /outbox page and the tests read it.
import type { Db } from '../db/client'
import { insertOutboxEmail } from '../db/notifications'

/** The shape of src/auth/accounts.ts's AccountMail (auth sits below this module and names it). */
interface AccountMail {
  userId: string
  to: string
  subject: string
  body: string
}

export async function sendAccountMail(env: Cloudflare.Env, db: Db, mail: AccountMail, now: number): Promise<void> {
  if (env.MAILER === 'cloudflare' && env.EMAIL && env.MAIL_FROM) {
    await env.EMAIL.send({ from: env.MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.body })
    return
  }
  await insertOutboxEmail(db, { userId: mail.userId, toAddress: mail.to, subject: mail.subject, body: mail.body, createdAt: now })
}
