// The production mailer: Cloudflare Email Service through the Worker's send_email binding. Its
// documentation (docs/decisions/alerts.md) shows that an account on the Workers Paid plan with
// an onboarded sending domain can send to any recipient. Alerts carry RFC 8058 one-click
// unsubscribe headers, which the service accepts as custom headers.
import { type Email, type Mailer, withFooter } from './email'

export function cloudflareMailer(binding: SendEmail, from: string): Mailer {
  return {
    async send(email: Email) {
      await binding.send({
        from,
        to: email.to,
        subject: email.subject,
        text: withFooter(email),
        headers: {
          'List-Unsubscribe': `<${email.unsubscribeUrl}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      })
    },
  }
}
