// An email as every mailer takes it, and the footer all of them add.

export interface Email {
  userId: string
  to: string
  subject: string
  /** Plain text; the unsubscribe line is added by the mailer (every channel, the same words). */
  body: string
  /** One-click unsubscribe (RFC 8058): a signed link that turns email alerts off. */
  unsubscribeUrl: string
}

export interface Mailer {
  send(email: Email): Promise<void>
}

/** The footer every alert email ends with, in the outbox and in real mail alike. */
export function withFooter(email: Email): string {
  return `${email.body}\n\n--\nYou get this because email alerts are on in Tablewatch.\nStop these emails: ${email.unsubscribeUrl}`
}
