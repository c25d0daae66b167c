// Carries out the effects decide() asks for, and returns what the world answered as the next
// events. Every platform call goes through the Platform interface here (the user's token) or in
// the availability objects (the service's key), so an executor can be chosen per user later.
// Nothing here reads or changes the request's state: answers go back to decide() as events.

import { findConnection } from '../../db/connections'
import { mirrorState } from '../../db/requests'
import { claimedByOtherRequests, recordReservation } from '../../db/reservations'
import { findVenues } from '../../db/venues'
import { notifyUser, notifyUserOfAll } from '../../notifications/notify'
import { alertPreferencesOf } from '../alert-preferences'
import { markReauthRequired, type PlatformSession, platformSessionOf } from '../connection'
import { type Deps, depsOf } from '../deps'
import { availabilityName, type Effect, type OfferAnswer, type RequestEvent, type VerifyAnswer } from '../events'
import { windowsOf } from '../rules'
import { alertsOf } from './alerts'
import { baseIntervalFrom } from './cadence'
import { gapAllows, restaurantDate } from './digest'
import { digestAlert } from './digest-alert'
import { budget } from './limits'
import { ourReservation } from './rules'
import { subscriptionFor } from './schedule'

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
  const sessions = new Map<string, Promise<PlatformSession | null>>()
  const background: Promise<unknown>[] = []
  const deps = () => depsOf(env)
  // One decryption per user and run: the offer check and the book call share it.
  const sessionOf = (d: Deps, userId: string) => {
    const known = sessions.get(userId)
    if (known) return known
    const session = platformSessionOf(d, userId)
    sessions.set(userId, session)
    return session
  }
  const rejected = async (d: Deps, userId: string) => {
    sessions.delete(userId)
    return markReauthRequired(d, userId)
  }

  async function one(effect: Effect): Promise<RequestEvent[]> {
    const d = deps()
    switch (effect.kind) {
      case 'notify':
        await notifyUserOfAll(d, effect.to.userId, alertsOf(effect.to, effect.notice, d.baseUrl), (work) => background.push(work))
        return []
      case 'send_digest':
        return sendDigest(d, effect)
      case 'mirror':
        await mirrorState(env.DB, effect.row, effect.specChanged ? windowsOf(effect.row.spec) : null)
        return []
      case 'subscribe': {
        const { target } = effect
        const [connection, rows] = await Promise.all([findConnection(d.db, target.userId), findVenues(d.db, target.spec.venue_ids)])
        // The contract: without a working connection the service cannot check availability.
        if (connection?.state !== 'ok') return [{ kind: 'connection', state: connection ? 'reauth' : 'missing', reconnectNotice: null }]
        const rules = rows.flatMap((r) =>
          r.releaseDaysInAdvance !== null && r.releaseTime !== null
            ? [{ venueId: r.venueId, timeZone: r.timeZone, daysInAdvance: r.releaseDaysInAdvance, time: r.releaseTime }]
            : [],
        )
        const interval = baseIntervalFrom(env)
        await Promise.all(
          target.venueDays.map((venueDay) => {
            const row = rows.find((r) => r.venueId === venueDay.venueId)
            const subject = { venueDay, venueName: row?.name ?? `venue ${venueDay.venueId}`, urlSlug: row?.urlSlug ?? null }
            const subscription = subscriptionFor(target.requestId, target.spec, target.expiresAt, venueDay, rules, interval)
            return availability(env, availabilityName(venueDay)).subscribe(subject, subscription)
          }),
        )
        return [{ kind: 'connection', state: 'ok', reconnectNotice: null, subscribed: true }]
      }
      case 'unsubscribe':
        await Promise.all(effect.venueDays.map((v) => availability(env, availabilityName(v)).unsubscribe(effect.requestId)))
        return []
      case 'check_offer': {
        const answer = await checkOffer(d, effect)
        return [{ kind: 'offer_checked', offer: effect.offer, answer }]
      }
      case 'book': {
        const session = await sessionOf(d, effect.userId)
        const { attempt } = effect
        const outcome = session
          ? await d.platform.book(session.authToken, { bookToken: effect.bookToken, paymentMethodId: session.paymentMethodId })
          : ({ kind: 'reauth' } as const)
        const reconnectNotice = outcome.kind === 'reauth' && session ? await rejected(d, effect.userId) : null
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
    await notifyUser(d, digestAlert(effect.to, effect.tables, d.baseUrl), (work) => background.push(work))
    const days = [...new Set(effect.tables.map(restaurantDate))]
    return [{ kind: 'digest_sent', keys: effect.tables.map((t) => t.key), days, at: d.now }]
  }

  async function checkOffer(d: Deps, effect: Extract<Effect, { kind: 'check_offer' }>): Promise<OfferAnswer> {
    const { slot } = effect.offer
    const [session, wait] = await Promise.all([sessionOf(d, effect.userId), budget(env, `account:${effect.userId}`, BOOKING_CALLS)])
    if (!session) return { kind: 'no_connection', reconnectNotice: null }
    if (wait > 0) return { kind: 'busy' }
    const query = { configId: slot.configId, day: slot.day, partySize: effect.spec.party_size }
    const [details, listed] = await Promise.all([
      d.platform.bookingDetails(session.authToken, query),
      d.platform.listReservations(session.authToken),
    ])
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
    const session = await sessionOf(d, request.userId)
    if (!session) return { kind: 'unreadable', reconnectNotice: null }
    const listed = await d.platform.listReservations(session.authToken)
    if (listed.kind === 'reauth') return { kind: 'unreadable', reconnectNotice: await rejected(d, request.userId) }
    if (listed.kind !== 'ok') return { kind: 'unreadable', reconnectNotice: null }
    // A table another request booked and recorded (one asked again after this one was stopped) is not ours.
    const found = ourReservation(attempt, listed.value, await claimedByOtherRequests(d.db, request.userId, request.id))
    if (!found) return { kind: 'absent' }
    await recordReservation(d.db, {
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

const availability = (env: Cloudflare.Env, name: string) => env.AVAILABILITY.get(env.AVAILABILITY.idFromName(name))
