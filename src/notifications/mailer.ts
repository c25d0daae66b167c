// The mailer interface and how a deployment picks one: production sends through Cloudflare's
// Email Service (the send_email binding, cloudflare-mailer.ts); local development and tests keep
// the D1 outbox, which the /outbox page shows. docs/decisions/alerts.md records why.
import type { Db } from '../db/client'
import { insertOutboxEmail } from '../db/notifications'
import { cloudflareMailer } from './cloudflare-mailer'
import { type Mailer, withFooter } from './email'

export type { Mailer } from './email'

function outboxMailer(db: Db, now: () => number = Date.now): Mailer {
  return {
    async send(email) {
      await insertOutboxEmail(db, {
        userId: email.userId,
        toAddress: email.to,
        subject: email.subject,
        body: withFooter(email),
        createdAt: now(),
      })
    },
  }
}

/**
 * MAILER=cloudflare (production) sends for real and needs the EMAIL binding and MAIL_FROM; a
 * deployment that asks for it without them fails loudly instead of dropping mail silently.
 */
export function mailerOf(env: Cloudflare.Env, db: Db, now: () => number = Date.now): Mailer {
  if (env.MAILER !== 'cloudflare') return outboxMailer(db, now)
  if (!env.EMAIL || !env.MAIL_FROM) throw new Error('MAILER=cloudflare needs the EMAIL send_email binding and MAIL_FROM')
  return cloudflareMailer(env.EMAIL, env.MAIL_FROM)
}
