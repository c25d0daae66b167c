// The effects that tell the user: a notice, and the digest (less the repeats the user's gap leaves out).
import { alertPreferencesOf } from '../../alerts/alert-preferences'
import { alertsOf } from '../../alerts/alerts'
import { restaurantDate, withinGap } from '../../alerts/digest'
import { digestAlert } from '../../alerts/digest-alert'
import { findVenues } from '../../db/venues'
import { notifyUser, notifyUserOfAll } from '../../notifications/notify'
import type { RequestEvent } from '../events'
import type { EffectOf, EffectStep } from './context'

export async function notify({ deps, background }: EffectStep, effect: EffectOf<'notify'>): Promise<RequestEvent[]> {
  // The notice names the dinner's restaurants: their names from the catalog (a table's own notice carries its name).
  const ids = effect.notice.type === 'digest' ? [] : (effect.to.dinner?.venueIds ?? [])
  const names = new Map((await findVenues(deps.db, ids)).map((v) => [v.venueId, v.name] as const))
  await notifyUserOfAll(deps, effect.to.userId, alertsOf(effect.to, effect.notice, deps.baseUrl, names), (work) => background.push(work))
  return []
}

/**
 * One alert of every table not told yet, at once; a table that came back within the user's gap of
 * its last alert is left out (the daily cap limits the alert's channels, not the inbox).
 */
export async function sendDigest({ deps, background }: EffectStep, effect: EffectOf<'send_digest'>): Promise<RequestEvent[]> {
  const prefs = await alertPreferencesOf(deps, effect.to.userId)
  const { send, repeats } = withinGap(effect.tables, prefs.alertGapMinutes * 60_000, deps.now)
  const left = repeats.length > 0 ? { repeats } : {}
  if (send.length === 0) return [{ kind: 'digest_sent', keys: [], days: [], at: deps.now, ...left }]
  await notifyUser(deps, digestAlert(effect.to, send, deps.baseUrl, effect.more), (work) => background.push(work))
  const days = [...new Set(send.map(restaurantDate))]
  const counted = effect.more ? { more: effect.more } : {}
  return [{ kind: 'digest_sent', keys: send.map((t) => t.key), days, at: deps.now, ...counted, ...left }]
}
