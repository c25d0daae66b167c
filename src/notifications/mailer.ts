// The mailer interface. The one implementation today writes to the D1 outbox, which the
// outbox page shows in local development; a provider-backed mailer would implement the same.
import type { Db } from '../db/client'
import { insertOutboxEmail } from '../db/notifications'

export interface Email {
  userId: string
  to: string
  subject: string
  body: string
}

export interface Mailer {
  send(email: Email): Promise<void>
}

export function outboxMailer(db: Db, now: () => number = Date.now): Mailer {
  return {
    async send(email) {
      await insertOutboxEmail(db, {
        userId: email.userId,
        toAddress: email.to,
        subject: email.subject,
        body: email.body,
        createdAt: now(),
      })
    },
  }
}
