// The email channel: the alert as a mail to the diner's address, with its link (an approval
// link carries the dinner's words, sealed, for the sign-in page) and a one-click unsubscribe.
import { withSignInHint } from '../../lib/diner-sign-in-hint'
import type { AlertKind } from '../kinds'
import { mailerOf } from '../mailer'
import { unsubscribeUrl } from '../unsubscribe'
import type { Alert, AlertChannel, NotifyDeps } from './channel'

/** Notices that ask for approval, whose subject ("Approve: <the dinner>") names what is asked. */
const ASKS_APPROVAL: AlertKind[] = ['approval_needed', 'expiry_warning']

/**
 * An approval mail's link carries the dinner's words, sealed, so that sign-in can say what it is
 * for (src/lib/diner-sign-in-hint.ts): the subject after its "Approve: " (or expiry) prefix.
 */
function mailLink(deps: NotifyDeps, alert: Alert, link: string): Promise<string> {
  if (!ASKS_APPROVAL.includes(alert.kind)) return Promise.resolve(link)
  const colon = alert.title.indexOf(': ')
  const words = colon < 0 ? alert.title : alert.title.slice(colon + 2)
  return withSignInHint(deps.env.PLATFORM_TOKEN_KEY, link, words, deps.now)
}

export const emailChannel: AlertChannel = {
  name: 'email',
  wants: (user) => user.emailAlerts,
  async send(deps, user, alert) {
    const link = alert.link ? await mailLink(deps, alert, alert.link) : null
    const body = link && !alert.groups ? `${alert.body}\n\n${link}` : alert.body
    await mailerOf(deps.env, deps.db, () => deps.now).send({
      userId: user.id,
      to: user.email,
      subject: alert.title,
      body,
      unsubscribeUrl: await unsubscribeUrl(deps.env, deps.baseUrl, user.id),
    })
  },
}
