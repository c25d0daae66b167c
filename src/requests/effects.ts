// Carries out the effects decide() asks for, and returns what the world answered as the next
// events. Every platform call goes through the Platform interface here (the user's token) or in
// the availability objects (the service's key), so an executor can be chosen per user later.
// Nothing here reads or changes the request's state: answers go back to decide() as events.

import { alertPreferencesOf } from '../alerts/alert-preferences'
import { alertsOf } from '../alerts/alerts'
import { gapAllows, restaurantDate } from '../alerts/digest'
import { digestAlert } from '../alerts/digest-alert'
import { findConnection } from '../db/connections'
import { mirrorState } from '../db/requests'
import { claimedByOtherRequests, claimReservation } from '../db/reservations'
import { findVenues } from '../db/venues'
import { accountRouteOf, deviceReservations, onDevice, type RouteFacts } from '../executors/account-route'
import { markReauthRequired } from '../executors/connection'
import { type UserSession, userSession } from '../executors/platform-session'
import { notifyUser, notifyUserOfAll } from '../notifications/notify'
import type { DetailsQuery } from '../platform/api'
import { venuePageUrl } from '../platform/web-pages'
import { type Deps, depsOf } from '../runtime/deps'
import { baseIntervalFrom } from '../watching/cadence'
import { budget } from '../watching/limits'
import { subscriptionFor } from '../watching/schedule'
import { ourReservation } from './booking/booking-rules'
import { availabilityName, availabilityObjectName, type Effect, type OfferAnswer, type RequestEvent, type VerifyAnswer } from './events'
import { windowsOf } from './rules'

export interface EffectsDone {
  events: RequestEvent[]
  /** Effects that threw: the object keeps those that must complete in its outbox. */
  failed: Effect[]
  /** Work that may finish after the answer (webhooks). */
  background: Promise<unknown>[]
}

/** Calls a booking makes with the user's token: details, the account's reservations, book. */
const BOOKING_CALLS = 3

export function effectRunner(env: Cloudflare.Env) {
  const sessions = new Map<string, Promise<UserSession | null>>()
  const background: Promise<unknown>[] = []
  const deps = () => depsOf(env)
  // One session per user and run: the offer check and the book call share it (and its renewal).
  const sessionOf = (d: Deps, userId: string) => {
    const known = sessions.get(userId)
    if (known) return known
    const session = userSession(d, userId)
    sessions.set(userId, session)
    return session
  }
  const routes = new Map<string, Promise<RouteFacts>>()
  // One look per user and run at where the account calls go (the stored token or the device).
  const routeOf = (d: Deps, userId: string) => {
    const known = routes.get(userId)
    if (known) return known
    const route = accountRouteOf(d, userId)
    routes.set(userId, route)
    return route
  }
  const rejected = async (d: Deps, userId: string) => {
    sessions.delete(userId)
    return markReauthRequired(d, userId)
  }

  async function one(effect: Effect): Promise<RequestEvent[]> {
    const d = deps()
    switch (effect.kind) {
      case 'notify': {
        // The notice names the dinner's restaurants: their names from the catalog (a table's own notice carries its name).
        const ids = effect.notice.type === 'digest' ? [] : (effect.to.dinner?.venueIds ?? [])
        const names = new Map((await findVenues(d.db, ids)).map((v) => [v.venueId, v.name] as const))
        await notifyUserOfAll(d, effect.to.userId, alertsOf(effect.to, effect.notice, d.baseUrl, names), (work) => background.push(work))
        return []
      }
      case 'send_digest':
        return sendDigest(d, effect)
      case 'mirror':
        await mirrorState(env.DB, effect.row, effect.specChanged ? windowsOf(effect.row.spec) : null)
        return []
      case 'subscribe': {
        const { target } = effect
        const [connection, rows, { route, everPaired }] = await Promise.all([
          findConnection(d.db, target.userId),
          findVenues(d.db, target.spec.venue_ids),
          routeOf(d, target.userId),
        ])
        // Booking from a device: watching waits while no device is connected (issue 17).
        if (route === 'offline') return [{ kind: 'connection', state: 'device_offline', reconnectNotice: null }]
        // The contract: without a working connection the service cannot check availability.
        if (route === 'cloud' && connection?.state !== 'ok') {
          return [{ kind: 'connection', state: connection ? 'reauth' : 'missing', reconnectNotice: null }]
        }
        const rules = rows.flatMap((r) =>
          r.releaseDaysInAdvance !== null && r.releaseTime !== null
            ? [{ venueId: r.venueId, timeZone: r.timeZone, daysInAdvance: r.releaseDaysInAdvance, time: r.releaseTime }]
            : [],
        )
        const interval = baseIntervalFrom(env)
        // A user whose device makes the calls watches through availability objects of their own.
        const via = route === 'device' ? target.userId : null
        await Promise.all(
          target.venueDays.map(async (venueDay) => {
            const row = rows.find((r) => r.venueId === venueDay.venueId)
            const subject = {
              venueDay,
              venueName: row?.name ?? `venue ${venueDay.venueId}`,
              venuePage: row ? venuePageUrl(row) : null,
              via,
            }
            const subscription = subscriptionFor(target.requestId, target.spec, target.expiresAt, venueDay, rules, interval)
            const key = availabilityName(venueDay)
            // Where the calls ran before (the user switched): leave it first, so only one object pushes.
            if (everPaired) await availability(env, availabilityObjectName(key, via ? null : target.userId)).unsubscribe(target.requestId)
            return availability(env, availabilityObjectName(key, via)).subscribe(subject, subscription)
          }),
        )
        return [{ kind: 'connection', state: 'ok', reconnectNotice: null, subscribed: true }]
      }
      case 'unsubscribe': {
        // Both the shared object and the user's own, when the user ever paired a device.
        const vias = (await routeOf(d, effect.userId)).everPaired ? [null, effect.userId] : [null]
        await Promise.all(
          effect.venueDays.flatMap((v) =>
            vias.map((via) => availability(env, availabilityObjectName(availabilityName(v), via)).unsubscribe(effect.requestId)),
          ),
        )
        return []
      }
      case 'check_offer': {
        const answer = await checkOffer(d, effect)
        return [{ kind: 'offer_checked', offer: effect.offer, answer }]
      }
      case 'book': {
        const { attempt } = effect
        const { route } = await routeOf(d, effect.userId)
        if (route !== 'cloud') {
          // One work id per attempt: asking again returns the device's answer, never a second booking.
          const answer =
            route === 'device'
              ? await onDevice(d, effect.userId, `book:${attempt.createdAt}:${attempt.slotKey}`, {
                  op: 'book',
                  bookToken: effect.bookToken,
                  card: attempt.needsCard,
                })
              : null
          const outcome = answer ?? ({ kind: 'unknown', detail: 'the paired device did not answer' } as const)
          return [{ kind: 'booking_answer', attemptAt: attempt.createdAt, outcome, reconnectNotice: null }]
        }
        const session = await sessionOf(d, effect.userId)
        const outcome = session
          ? await d.platform.book(session.authToken(), {
              bookToken: effect.bookToken,
              // The card only where the table holds one (§11; `Cierge:resy/book.go`).
              paymentMethodId: attempt.needsCard ? session.paymentMethodId : null,
            })
          : ({ kind: 'reauth' } as const)
        // Book is never repeated: a rejected token is renewed for the next attempt; the user is
        // asked to reconnect only when the platform refuses the refresh too.
        const refused = outcome.kind === 'reauth' && session && (await session.renewAfterRejection()).kind === 'refused'
        const reconnectNotice = refused ? await rejected(d, effect.userId) : null
        return [{ kind: 'booking_answer', attemptAt: attempt.createdAt, outcome, reconnectNotice }]
      }
      case 'verify':
        return [{ kind: 'verification_answer', attemptAt: effect.attempt.createdAt, answer: await verify(d, effect) }]
    }
  }

  /** The per-request gap may hold the digest; else one alert (the daily cap limits its channels). */
  async function sendDigest(d: Deps, effect: Extract<Effect, { kind: 'send_digest' }>): Promise<RequestEvent[]> {
    const prefs = await alertPreferencesOf(d, effect.to.userId)
    const gap = gapAllows({ ...effect, gapMs: prefs.alertGapMinutes * 60_000 }, d.now)
    if (!gap.send) return [{ kind: 'digest_held', until: gap.until }]
    await notifyUser(d, digestAlert(effect.to, effect.tables, d.baseUrl, effect.more), (work) => background.push(work))
    const days = [...new Set(effect.tables.map(restaurantDate))]
    const counted = effect.more ? { more: effect.more } : {}
    return [{ kind: 'digest_sent', keys: effect.tables.map((t) => t.key), days, at: d.now, ...counted }]
  }

  async function checkOffer(d: Deps, effect: Extract<Effect, { kind: 'check_offer' }>): Promise<OfferAnswer> {
    const { slot } = effect.offer
    const { route } = await routeOf(d, effect.userId)
    if (route === 'offline') return { kind: 'unavailable', detail: 'the paired device is offline' }
    const [session, wait] = await Promise.all([
      route === 'cloud' ? sessionOf(d, effect.userId) : null,
      budget(env, `account:${effect.userId}`, BOOKING_CALLS),
    ])
    if (route === 'cloud' && !session) return { kind: 'no_connection', reconnectNotice: null }
    if (wait > 0) return { kind: 'busy' }
    const query = { configId: slot.configId, day: slot.day, partySize: effect.spec.party_size }
    // Reads renew a rejected token once; `reauth` means the platform refused the refresh too.
    const [details, listed] = session
      ? await Promise.all([
          session.read((authToken) => d.platform.bookingDetails(authToken, query)),
          session.read((authToken) => d.platform.listReservations(authToken)),
        ])
      : await onDeviceBoth(d, effect.userId, `offer:${slotKeyOf(effect)}:${d.now}`, query)
    if (!details || !listed) return { kind: 'unavailable', detail: 'the paired device did not answer' }
    if (!session && (details.kind === 'reauth' || listed.kind === 'reauth')) {
      // The device's own sign-in was refused: only the user can fix it, on the device.
      return { kind: 'unavailable', detail: 'the platform refused the paired device’s sign-in' }
    }
    if (details.kind === 'reauth' || listed.kind === 'reauth') {
      return { kind: 'no_connection', reconnectNotice: await rejected(d, effect.userId) }
    }
    if (details.kind === 'not_found') return { kind: 'gone' }
    if (details.kind !== 'ok') return { kind: 'unavailable', detail: details.kind }
    if (listed.kind !== 'ok') return { kind: 'unavailable', detail: `reservations: ${listed.kind}` }
    return { kind: 'ok', details: details.value, held: listed.value }
  }

  /** Looks for the attempted booking on the account; records it (once per request) when it is there. */
  async function verify(d: Deps, effect: Extract<Effect, { kind: 'verify' }>): Promise<VerifyAnswer> {
    const { request, attempt } = effect
    // Not capped: one look per 20 s per attempt, and a booking that landed must always be found.
    // A device's booking is looked for through the device, else with the cloud token if the
    // user has one (reading the account never books).
    const { route } = await routeOf(d, request.userId)
    const viaDevice = route === 'cloud' ? null : await deviceReservations(d, request.userId, `verify:${attempt.createdAt}:${d.now}`)
    const session = viaDevice?.kind === 'ok' ? null : await sessionOf(d, request.userId)
    if (!viaDevice && !session) return { kind: 'unreadable', reconnectNotice: null }
    const listed =
      viaDevice?.kind === 'ok' || !session
        ? (viaDevice ?? { kind: 'unavailable', detail: '' })
        : await session.read((authToken) => d.platform.listReservations(authToken))
    if (listed.kind === 'reauth') return { kind: 'unreadable', reconnectNotice: await rejected(d, request.userId) }
    if (listed.kind !== 'ok') return { kind: 'unreadable', reconnectNotice: null }
    // A table another request booked and recorded (one asked again after this one was stopped) is not ours.
    const found = ourReservation(attempt, listed.value, await claimedByOtherRequests(d.db, request.userId, request.id))
    if (!found) return { kind: 'absent' }
    const ours = await claimReservation(d.db, {
      requestId: request.id,
      userId: request.userId,
      principalId: request.principalId,
      venueId: attempt.venueId,
      date: attempt.day,
      time: attempt.time,
      partySize: attempt.partySize,
      seating: attempt.seatingType,
      startsAt: attempt.startsAt,
      platformReservationId: found.reservationId,
      cancellationFee: attempt.cancellationFee,
      cancellationDeadline: attempt.freeCancellationUntil,
      verified: true,
      createdAt: attempt.createdAt,
      verifiedAt: d.now,
    })
    // Another request of the user claimed it between the read above and this insert.
    if (!ours) return { kind: 'absent' }
    return { kind: 'found', reservationId: found.reservationId }
  }

  return {
    async run(effects: Effect[]): Promise<EffectsDone> {
      const settled = await Promise.allSettled(effects.map(one))
      const failed = effects.filter((e, i) => {
        const result = settled[i]
        if (result?.status !== 'rejected') return false
        console.error(`effect ${e.kind} failed`, result.reason instanceof Error ? result.reason.message : String(result.reason))
        return true
      })
      const events = settled.flatMap((r) => (r.status === 'fulfilled' ? r.value : []))
      return { events, failed, background: background.splice(0) }
    },
  }
}

const slotKeyOf = (effect: Extract<Effect, { kind: 'check_offer' }>) => `${effect.offer.slot.configId}:${effect.offer.revision}`

/** Booking details and the account's reservations through the device, as two work items. */
function onDeviceBoth(d: Deps, userId: string, id: string, query: DetailsQuery) {
  return Promise.all([onDevice(d, userId, `${id}:details`, { op: 'details', query }), deviceReservations(d, userId, `${id}:reservations`)])
}

const availability = (env: Cloudflare.Env, name: string) => env.AVAILABILITY.get(env.AVAILABILITY.idFromName(name))
