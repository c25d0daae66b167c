// The effects that tell the user: a notice, and the digest (unless the user's gap holds it).
import { alertPreferencesOf } from '../../alerts/alert-preferences'
import { alertsOf } from '../../alerts/alerts'
import { gapAllows, restaurantDate } from '../../alerts/digest'
import { digestAlert } from '../../alerts/digest-alert'
import { findVenues } from '../../db/venues'
import { notifyUser, notifyUserOfAll } from '../../notifications/notify'
import type { RequestEvent } from '../events'
import type { EffectOf, EffectStep } from './context'

export async function notify({ d, background }: EffectStep, effect: EffectOf<'notify'>): Promise<RequestEvent[]> {
  // The notice names the dinner's restaurants: their names from the catalog (a table's own notice carries its name).
  const ids = effect.notice.type === 'digest' ? [] : (effect.to.dinner?.venueIds ?? [])
  const names = new Map((await findVenues(d.db, ids)).map((v) => [v.venueId, v.name] as const))
  await notifyUserOfAll(d, effect.to.userId, alertsOf(effect.to, effect.notice, d.baseUrl, names), (work) => background.push(work))
  return []
}

/** The per-request gap may hold the digest; else one alert (the daily cap limits its channels). */
export async function sendDigest({ d, background }: EffectStep, effect: EffectOf<'send_digest'>): Promise<RequestEvent[]> {
  const prefs = await alertPreferencesOf(d, effect.to.userId)
  const gap = gapAllows({ ...effect, gapMs: prefs.alertGapMinutes * 60_000 }, d.now)
  if (!gap.send) return [{ kind: 'digest_held', until: gap.until }]
  await notifyUser(d, digestAlert(effect.to, effect.tables, d.baseUrl, effect.more), (work) => background.push(work))
  const days = [...new Set(effect.tables.map(restaurantDate))]
  const counted = effect.more ? { more: effect.more } : {}
  return [{ kind: 'digest_sent', keys: effect.tables.map((t) => t.key), days, at: d.now, ...counted }]
}
