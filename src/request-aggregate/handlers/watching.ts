// The effects that keep the index row and the availability objects in step with the request.
import { mirrorState } from '../../db/requests'
import { findVenues } from '../../db/venues'
import { venuePageUrl } from '../../platform/web-pages'
import { baseIntervalFrom } from '../../watching/cadence'
import { releaseClockFrom } from '../../watching/release-clock'
import { subscriptionFor } from '../../watching/schedule'
import { availabilityName, availabilityObjectName, type RequestEvent } from '../events'
import { windowsOf } from '../spec'
import type { EffectOf, EffectStep } from './context'

export async function mirror({ env }: EffectStep, effect: EffectOf<'mirror'>): Promise<RequestEvent[]> {
  await mirrorState(env.DB, effect.row, effect.specChanged ? windowsOf(effect.row.spec) : null)
  return []
}

export async function subscribe({ deps, env, accountOf }: EffectStep, effect: EffectOf<'subscribe'>): Promise<RequestEvent[]> {
  const { target } = effect
  const account = await accountOf(target.userId)
  const [place, rows] = await Promise.all([account.watchPlace(), findVenues(deps.db, target.spec.venue_ids)])
  // No working connection, or the device the user books from is offline: watching waits.
  if (place.kind === 'blocked') return [{ kind: 'connection', state: place.state, reconnectNotice: null }]
  const rules = rows.flatMap((r) =>
    r.releaseDaysInAdvance !== null && r.releaseTime !== null
      ? [{ venueId: r.venueId, timeZone: r.timeZone, daysInAdvance: r.releaseDaysInAdvance, time: r.releaseTime }]
      : [],
  )
  const interval = baseIntervalFrom(env)
  const clock = releaseClockFrom(env)
  // A user whose device makes the calls watches through availability objects of their own.
  const { via } = place
  await Promise.all(
    target.venueDays.map(async (venueDay) => {
      const row = rows.find((r) => r.venueId === venueDay.venueId)
      const subject = {
        venueDay,
        venueName: row?.name ?? `venue ${venueDay.venueId}`,
        venuePage: row ? venuePageUrl(row) : null,
        via,
      }
      const subscription = subscriptionFor(target.requestId, target.spec, target.expiresAt, venueDay, rules, interval, clock)
      const key = availabilityName(venueDay)
      // Where the calls ran before (the user switched): leave it first, so only one object pushes.
      if (account.everPaired) await availability(env, availabilityObjectName(key, via ? null : target.userId)).unsubscribe(target.requestId)
      return availability(env, availabilityObjectName(key, via)).subscribe(subject, subscription)
    }),
  )
  return [{ kind: 'connection', state: 'ok', reconnectNotice: null, subscribed: true }]
}

export async function unsubscribe({ env, accountOf }: EffectStep, effect: EffectOf<'unsubscribe'>): Promise<RequestEvent[]> {
  // Both the shared object and the user's own, when the user ever paired a device.
  const vias = (await accountOf(effect.userId)).everPaired ? [null, effect.userId] : [null]
  await Promise.all(
    effect.venueDays.flatMap((v) =>
      vias.map((via) => availability(env, availabilityObjectName(availabilityName(v), via)).unsubscribe(effect.requestId)),
    ),
  )
  return []
}

const availability = (env: Cloudflare.Env, name: string) => env.AVAILABILITY.get(env.AVAILABILITY.idFromName(name))
