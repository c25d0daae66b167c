// Pushes one alert to every browser where its user turned push on: called by
// notifications/notify.ts after the same switches and daily cap as email, and by the settings'
// test push (alerts/push-settings.ts).
import type { Db } from '../../db/client'
import type { AlertKind } from '../kinds'
import { type PushReport, pushToUser } from './deliver'
import { deliveryOptionsOf, pushMessageOf } from './message'
import { vapidOf } from './vapid'

export interface PushUseDeps {
  env: Cloudflare.Env
  db: Db
  now: number
  baseUrl: string
  /** The push services' fetch: the global one unless a test passes a local push service. */
  pushFetcher?: ((request: Request) => Promise<Response>) | undefined
  /** Waits between retries: real time unless a test passes one that does not wait. */
  pushSleep?: ((ms: number) => Promise<void>) | undefined
}

export type AlertToPush = {
  kind: AlertKind | 'test'
  title: string
  body: string
  short?: string | undefined
  link: string | null
  requestId: string | null
  /** One table the service could book: the "Book" action opens its page. */
  book?: string | undefined
}

/** The alert to every browser of the user; nothing when push is not set up or no browser has it on. */
export async function pushAlert(deps: PushUseDeps, userId: string, alert: AlertToPush): Promise<PushReport> {
  const vapid = vapidOf(deps.env, deps.baseUrl)
  if (!vapid) return { delivered: 0, dropped: 0, failed: 0 }
  return pushToUser(deps, vapid, userId, pushMessageOf(alert, deps.baseUrl), {
    ...deliveryOptionsOf(alert.kind),
    fetcher: deps.pushFetcher,
    sleep: deps.pushSleep,
  })
}
