// What one alert channel is: whether the diner's settings turn it on, and how it delivers one
// alert that is new and allowed (notify.ts decides both once, for every channel). A channel
// never checks the daily cap or the switches, and never stores anything of its own.
import type { Db } from '../../db/client'
import type { UserRow } from '../../db/users'
import type { AlertKind } from '../kinds'
import type { AlertGroup } from '../webhook-body'

export interface Alert {
  userId: string
  requestId: string | null
  /** The same key never alerts twice, across polls, retries and restarts. */
  dedupeKey: string
  kind: AlertKind
  title: string
  body: string
  /** The body in a few lines, for a small screen (push); the body when absent. */
  short?: string
  link: string | null
  /** A digest's tables by restaurant and date (every channel lists the same). */
  groups?: AlertGroup[]
  /** An alert of one table the service could book: its "Book this table" page (push offers it as the "Book" action). */
  book?: string
}

/** What notifying needs: the database, the clock, the mailer's bindings and the links' origin. */
export interface NotifyDeps {
  env: Cloudflare.Env
  db: Db
  now: number
  baseUrl: string
  /** Web Push's fetch and wait between retries (notifications/push); tests pass a local push service. */
  pushFetcher?: (request: Request) => Promise<Response>
  pushSleep?: (ms: number) => Promise<void>
}

/** Work that must not hold the caller up (the webhook, Web Push's retries). */
export type Background = (work: Promise<unknown>) => void

export interface AlertChannel {
  /** For logs and the table's order. */
  name: string
  /** Whether the diner's settings send alerts this way. */
  wants(user: UserRow): boolean
  /** Delivers one alert; slow or retried work goes to `background`. */
  send(deps: NotifyDeps, user: UserRow, alert: Alert, background: Background): Promise<void>
}
