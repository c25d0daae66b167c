// The booking part of decide(): new matching slots, the offer check, the book call and the
// verification. Money moves only after the attempt is decided (and so persisted) first.
import { describe, expect, it } from 'vitest'
import { decide } from '../../src/request-aggregate/decide'
import type { Offer, OfferAnswer, RequestEvent } from '../../src/request-aggregate/events'
import type { RequestState } from '../../src/request-aggregate/state'
import { attemptOf, DAY, details, NOW, offerOf, ofKind, seen, slotAt, specOf, stateIn, termsOf, VENUE } from './fixtures'

const checked = (offer: Offer, answer: Extract<RequestEvent, { kind: 'offer_checked' }>['answer']): RequestEvent => ({
  kind: 'offer_checked',
  offer,
  answer,
})
const checking = (state: RequestState): RequestState => ({ ...state, checkingOffer: NOW - 10 })

describe('new matching slots', () => {
  it('tells the user of every new matching slot of the poll in one alert, once each', () => {
    const state = stateIn('active', specOf({ mode: 'alert_only' }))
    const first = decide(state, seen('19:30', '20:00', '22:30'), NOW)
    // One venue-day watched: nothing to gather, so the alert goes in the same step.
    const [send, ...more] = ofKind(first.effects, 'send_digest')
    expect(more).toEqual([])
    expect(send?.tables.map((t) => [t.venueName, t.time, t.note])).toEqual([
      ['Pomelo Garden', '19:30', null],
      ['Pomelo Garden', '20:00', null],
    ])
    const again = decide(first.state, seen('19:30', '20:00'), NOW + 1)
    expect(again.effects).toEqual([])
    expect(again.state).toBe(first.state)
  })

  it('goes straight to the details of the earliest matching slot for an approved auto_book request', () => {
    const decision = decide(stateIn('active'), seen('20:30', '19:30'), NOW)
    const [check] = ofKind(decision.effects, 'check_offer')
    expect(check?.offer.slot.time).toBe('19:30')
    expect(check?.offer.rest.map((r) => r.slot.time)).toEqual(['20:30'])
    expect(decision.state.checkingOffer).toBe(NOW)
  })

  it('asks for the slots again instead of checking a second offer at the same time', () => {
    const decision = decide(checking(stateIn('active')), seen('19:30'), NOW)
    expect(decision.effects).toEqual([])
    expect(decision.reply).toEqual({ watching: true, redeliver: true })
  })

  it('only alerts once booking is disabled after an unverifiable attempt', () => {
    const decision = decide({ ...stateIn('active'), bookingDisabled: 'earlier booking unverified' }, seen('19:30'), NOW)
    expect(decision.effects.map((e) => e.kind)).toEqual(['send_digest'])
    expect(decision.state.digest?.tables.map((t) => t.time)).toEqual(['19:30'])
  })

  it('ignores news while a booking is verified, and news of a venue-day it no longer watches', () => {
    expect(decide(stateIn('awaiting_verification'), seen('19:30'), NOW).effects).toEqual([])
    expect(decide({ ...stateIn('active'), watching: [] }, seen('19:30'), NOW).reply).toEqual({ watching: false })
  })
})

describe('the offer check', () => {
  const state = () => checking(stateIn('active'))

  it('decides the attempt and awaiting_verification before the book call, for the approved revision', () => {
    const decision = decide(state(), checked(offerOf('19:30'), { kind: 'ok', details: details({ bookToken: 'bt' }), held: [] }), NOW)
    expect(decision.state.status).toBe('awaiting_verification')
    expect(decision.state.attempt).toMatchObject({ time: '19:30', revision: 1, outcome: 'pending', checkAt: NOW + 20_000 })
    expect(decision.state.checkingOffer).toBeNull()
    expect(ofKind(decision.effects, 'book')).toEqual([
      { kind: 'book', userId: 'usr_test', attempt: decision.state.attempt, bookToken: 'bt' },
    ])
  })

  it.each([
    ['stopped meanwhile', (s: RequestState): RequestState => ({ ...s, status: 'stopped' })],
    ['updated meanwhile', (s: RequestState): RequestState => ({ ...s, revision: 2, approvedRevision: null, status: 'needs_approval' })],
    ['already holding an attempt', (s: RequestState): RequestState => ({ ...s, attempt: attemptOf() })],
  ])('books nothing when %s', (_what, change) => {
    const decision = decide(change(state()), checked(offerOf('19:30'), { kind: 'ok', details: details(), held: [] }), NOW)
    expect(ofKind(decision.effects, 'book')).toEqual([])
  })

  it('sends the card with the book call only when the table holds one (resy-api.md, "Corrections (third review)")', () => {
    const free = decide(state(), checked(offerOf('19:30'), { kind: 'ok', details: details(), held: [] }), NOW)
    expect(ofKind(free.effects, 'book')[0]?.attempt.needsCard).toBe(false)
    const holdTerms = termsOf({ isPaid: true, cancellationFee: 10, secsCancelCutOff: 3_600 })
    const hold: Offer = { ...offerOf('19:30'), slot: slotAt('19:30', { terms: holdTerms }) }
    const held = decide(state(), checked(hold, { kind: 'ok', details: details({ cancellationFee: 10 }), held: [] }), NOW)
    expect(ofKind(held.effects, 'book')[0]?.attempt.needsCard).toBe(true)
  })

  it('alerts instead when the fee rules refuse, then tries the next slot of the poll', () => {
    const answer: OfferAnswer = { kind: 'ok', details: details({ cancellationFee: 50 }), held: [] }
    const offer = offerOf('19:30', ['20:00'])
    const terms = termsOf({ isPaid: true, cancellationFee: 50, secsCancelCutOff: 24 * 3600 })
    const decision = decide(state(), checked({ ...offer, slot: { ...offer.slot, terms } }, answer), NOW)
    expect(decision.state.digest?.tables).toEqual([
      expect.objectContaining({
        time: '19:30',
        fee: '$50 per person if you cancel late (card held)',
        note: 'the cancellation fee is $50 per person, above the $25 limit',
      }),
    ])
    expect(ofKind(decision.effects, 'check_offer').map((e) => e.offer.slot.time)).toEqual(['20:00'])
    expect(decision.state.trace.at(-1)?.message).toBe(
      // In the venue's zone and the one time style.
      'Not booked: Pomelo Garden, Sat, Dec 5 · 7:30 PM ET, Dining Room: the cancellation fee is $50 per person, above the $25 limit; you are told in the next alert.',
    )
  })

  it('never books a second table for a dinner the account already holds', () => {
    const held = [{ reservationId: '5', venueId: 99, day: DAY, time: '20:15', partySize: 2, seatingType: 'Bar' }]
    const decision = decide(state(), checked(offerOf('19:30'), { kind: 'ok', details: details(), held }), NOW)
    expect(decision.state.status).toBe('active')
    expect(decision.state.trace.at(-1)?.message).toMatch(/already holds a table for this dinner \(2026-12-05 20:15\)/)
  })

  it('moves on to the next slot when the table is gone, and ends the check after the last', () => {
    const next = decide(state(), checked(offerOf('19:30', ['20:00']), { kind: 'gone' }), NOW)
    expect(ofKind(next.effects, 'check_offer').map((e) => e.offer.slot.time)).toEqual(['20:00'])
    const last = decide(state(), checked(offerOf('19:30'), { kind: 'gone' }), NOW)
    expect(last.effects).toEqual([])
    expect(last.state.checkingOffer).toBeNull()
  })

  it('asks for the slots again after a passing failure or when the account’s call budget is spent', () => {
    for (const answer of [{ kind: 'unavailable', detail: '503' }, { kind: 'busy' }] as const) {
      const decision = decide(state(), checked(offerOf('19:30'), answer), NOW)
      expect(decision.reply.redeliver).toBe(true)
      expect(decision.state.checkingOffer).toBeNull()
    }
  })

  it('tells the tables "reconnect to book", says so once and keeps watching, when the session ended or was refused', () => {
    const decision = decide(state(), checked(offerOf('19:30', ['20:00']), { kind: 'no_connection', reconnectNotice: 42 }), NOW)
    const notices = ofKind(decision.effects, 'notify').map((e) => e.notice)
    expect(notices).toEqual([{ type: 'reconnect', connectedAt: 42 }])
    expect(decision.state.digest?.tables.map((t) => [t.time, t.note, t.waitsFor])).toEqual([
      ['19:30', expect.stringMatching(/^reconnect to book/), 'reconnect'],
      ['20:00', expect.stringMatching(/^reconnect to book/), 'reconnect'],
    ])
    expect(decision.state.statusReason).toMatch(/booking waits.*Reconnect it in Settings/)
    // Watching goes on: the checks need no session.
    expect(decision.state.watching).toEqual(stateIn('active').watching)
    expect(decision.state.blocked).toBeNull()
    expect(ofKind(decision.effects, 'unsubscribe')).toEqual([])
    expect(decision.state.reconnectToBook).toEqual([`${VENUE}|${DAY}|19:30|Dining Room`, `${VENUE}|${DAY}|20:00|Dining Room`])
  })
})

describe('the book call and verification', () => {
  const verifying = (over = {}) => ({ ...stateIn('awaiting_verification'), attempt: attemptOf(over) })
  const verified = (state: RequestState, answer: Extract<RequestEvent, { kind: 'verification_answer' }>['answer'], now = NOW) =>
    decide(state, { kind: 'verification_answer', attemptAt: attemptOf().createdAt, answer }, now)

  it('keeps what the book call answered and verifies at once', () => {
    const decision = decide(
      verifying(),
      { kind: 'booking_answer', attemptAt: attemptOf().createdAt, outcome: { kind: 'unknown', detail: 'timeout' }, reconnectNotice: null },
      NOW,
    )
    expect(decision.state.attempt?.outcome).toBe('unknown')
    expect(ofKind(decision.effects, 'verify')).toHaveLength(1)
  })

  it('ignores answers about another attempt', () => {
    const decision = decide(verifying(), { kind: 'verification_answer', attemptAt: 1, answer: { kind: 'found', reservationId: '1' } }, NOW)
    expect(decision.state.status).toBe('awaiting_verification')
  })

  it('confirms once the account shows the booking, and stops watching', () => {
    const decision = verified(verifying(), { kind: 'found', reservationId: '9' })
    expect(decision.state).toMatchObject({
      status: 'confirmed',
      attempt: null,
      watching: [],
      statusReason: 'Booked and verified on the platform account.',
    })
    expect(ofKind(decision.effects, 'notify').map((e) => e.notice.type)).toEqual(['booked'])
  })

  it('records a booking that lands after a stop, and stays stopped', () => {
    const decision = verified({ ...verifying(), status: 'stopped', watching: [] }, { kind: 'found', reservationId: '9' })
    expect(decision.state).toMatchObject({ status: 'stopped', attempt: null })
    expect(ofKind(decision.effects, 'notify').map((e) => e.notice.type)).toEqual(['booked'])
  })

  it('watches again after a refusal with nothing on the account, and tells the user about that table', () => {
    const decision = verified(verifying({ outcome: 'refused', refusal: 'conflict' }), { kind: 'absent' })
    expect(decision.state.status).toBe('active')
    expect(decision.state.alerted).toContain(attemptOf().slotKey)
    expect(ofKind(decision.effects, 'subscribe')).toHaveLength(1)
    expect(decision.state.digest?.tables[0]).toMatchObject({ note: 'the platform refused the booking (conflict)' })
  })

  it('keeps verifying an unknown outcome until the window closes, then never books again', () => {
    const meanwhile = verified(verifying({ outcome: 'unknown' }), { kind: 'absent' })
    expect(meanwhile.state.status).toBe('awaiting_verification')
    expect(meanwhile.alarmAt).toBe(NOW + 20_000)
    const late = verified(verifying({ outcome: 'unknown' }), { kind: 'unreadable', reconnectNotice: null }, attemptOf().verifyUntil)
    expect(late.state).toMatchObject({ status: 'active', attempt: null })
    expect(late.state.bookingDisabled).not.toBeNull()
    expect(ofKind(late.effects, 'notify').map((e) => e.notice.type)).toEqual(['unverified'])
  })

  describe('an attempt whose window closed while the account could not be read', () => {
    const lookedAt = (state: RequestState, answer: Extract<RequestEvent, { kind: 'verification_answer' }>['answer'], now: number) =>
      decide(state, { kind: 'verification_answer', attemptAt: attemptOf().createdAt, answer }, now)
    /** The window closes on an unreadable account (a lapsed session, the cloud refused): the request gives up booking. */
    const closedUnread = (start: RequestState = verifying({ outcome: 'unknown' })) =>
      lookedAt(start, { kind: 'unreadable', reconnectNotice: null }, attemptOf().verifyUntil)
    const LOOK = 5 * 60_000

    it('keeps looking for it on later alarms after it stops booking', () => {
      const late = closedUnread()
      expect(late.state).toMatchObject({ status: 'active', attempt: null, unsettled: { createdAt: attemptOf().createdAt } })
      expect(late.state.bookingDisabled).not.toBeNull()
      expect(late.alarmAt).toBeLessThanOrEqual(attemptOf().verifyUntil + LOOK)
      const alarm = decide(late.state, { kind: 'alarm' }, attemptOf().verifyUntil + LOOK)
      expect(ofKind(alarm.effects, 'verify').map((e) => e.attempt.createdAt)).toEqual([attemptOf().createdAt])
    })

    it('records the booking when the account shows it later, and confirms a request still watching', () => {
      const decision = lookedAt(closedUnread().state, { kind: 'found', reservationId: '9' }, attemptOf().verifyUntil + LOOK)
      expect(decision.state).toMatchObject({ status: 'confirmed', unsettled: null, watching: [] })
      expect(ofKind(decision.effects, 'notify').map((e) => e.notice.type)).toEqual(['booked'])
      expect(decision.alarmAt).toBeNull()
    })

    it('records it for a request that expired or was stopped meanwhile, which keep their status', () => {
      const closed = closedUnread().state
      const expired = decide(closed, { kind: 'alarm' }, closed.expiresAt + 1)
      expect(expired.state).toMatchObject({ status: 'expired', unsettled: { createdAt: attemptOf().createdAt } })
      expect(ofKind(expired.effects, 'verify')).toHaveLength(1)
      const stopped = closedUnread({ ...verifying({ outcome: 'unknown' }), status: 'stopped', watching: [] }).state
      for (const start of [expired.state, stopped]) {
        const decision = lookedAt(start, { kind: 'found', reservationId: '9' }, closed.expiresAt + 2)
        expect(decision.state).toMatchObject({ status: start.status, unsettled: null })
        expect(ofKind(decision.effects, 'notify').map((e) => e.notice.type)).toEqual(['booked'])
      }
    })

    it('stops looking once the account shows no such booking, or once the table’s time has passed', () => {
      const closed = closedUnread().state
      const none = lookedAt(closed, { kind: 'absent' }, attemptOf().verifyUntil + LOOK)
      expect(none.state.unsettled).toBeNull()
      expect(none.state.trace.at(-1)?.message).toMatch(/shows no booking .*: nothing was booked\.$/)
      const again = lookedAt(closed, { kind: 'unreadable', reconnectNotice: null }, attemptOf().verifyUntil + LOOK)
      expect(again.state.unsettled?.checkAt).toBe(attemptOf().verifyUntil + 2 * LOOK)
      const over = lookedAt(closed, { kind: 'unreadable', reconnectNotice: null }, attemptOf().startsAt)
      expect(over.state.unsettled).toBeNull()
    })

    it('never books while it may still have landed', () => {
      const { state } = closedUnread()
      const decision = decide({ ...state, bookingDisabled: null }, seen('20:00'), attemptOf().verifyUntil + 1)
      expect(ofKind(decision.effects, 'check_offer')).toEqual([])
    })

    it('settles as before when the account was read at the window’s end and shows nothing', () => {
      const end = lookedAt(verifying({ outcome: 'unknown' }), { kind: 'absent' }, attemptOf().verifyUntil)
      expect(end.state).toMatchObject({ attempt: null, unsettled: null })
      expect(end.state.bookingDisabled).not.toBeNull()
    })
  })

  describe('an unclear answer in which the platform said the table is gone', () => {
    const goneAnswer = (now = NOW) =>
      decide(
        verifying(),
        {
          kind: 'booking_answer',
          attemptAt: attemptOf().createdAt,
          outcome: { kind: 'unknown', detail: 'HTTP 410', saidGone: true },
          reconnectNotice: null,
        },
        now,
      )
    /** The account read absent at each of `times` (ms after NOW), in order; the last decision. */
    function absentAt(start: RequestState, times: number[]) {
      let state = start
      let last = verified(state, { kind: 'absent' }, NOW)
      for (const t of times) {
        last = verified(state, { kind: 'absent' }, NOW + t)
        state = last.state
      }
      return last
    }
    const MIN = 60_000

    it("keeps the platform's words and verifies for longer than an ordinary unknown outcome", () => {
      const decision = goneAnswer()
      expect(decision.state.attempt).toMatchObject({ outcome: 'unknown', saidGone: 'HTTP 410' })
      expect(decision.state.attempt?.verifyUntil).toBeGreaterThanOrEqual(NOW + 20 * MIN)
    })

    it('goes back to watching once several reads over at least ten minutes show nothing, and says so in the trace', () => {
      const reads = Array.from({ length: 31 }, (_, i) => i * 20_000) // every 20 s for 10 min
      const decision = absentAt(goneAnswer().state, reads)
      expect(decision.state).toMatchObject({ status: 'active', attempt: null, bookingDisabled: null })
      expect(decision.state.trace.map((t) => t.message)).toContainEqual(
        expect.stringMatching(
          /^The platform said the table was no longer available \(HTTP 410\) and 31 reads of the account over 10 min show no such reservation: nothing was booked; watching again\.$/,
        ),
      )
      expect(decision.state.alerted).toContain(attemptOf().slotKey) // that table is not tried again
      expect(ofKind(decision.effects, 'subscribe')).toHaveLength(1)
      expect(ofKind(decision.effects, 'notify').map((e) => e.notice.type)).not.toContain('unverified')
    })

    it('is not disproved by reads within ten minutes, however many', () => {
      const reads = Array.from({ length: 29 }, (_, i) => i * 20_000) // 9 min 20 s
      expect(absentAt(goneAnswer().state, reads).state.status).toBe('awaiting_verification')
    })

    it('counts an alarm delivered twice (the same read again at once) as one read', () => {
      // One look delivered three times, then one delivered twice ten minutes later: two reads.
      const twice = [0, 1_000, 2_000, 10 * MIN, 10 * MIN + 1_000]
      const decision = absentAt(goneAnswer().state, twice)
      expect(decision.state.attempt?.absentReads).toEqual({ first: NOW, last: NOW + 10 * MIN, count: 2 })
      expect(decision.state.status).toBe('awaiting_verification')
    })

    it('confirms when the account shows the booking after all, even late in the window', () => {
      const waiting = absentAt(goneAnswer().state, [0, 5 * MIN])
      const decision = verified(waiting.state, { kind: 'found', reservationId: '9' }, NOW + 9 * MIN)
      expect(decision.state.status).toBe('confirmed')
    })

    it('still gives up (alert-only) when the account cannot be read long enough to disprove it', () => {
      const state = goneAnswer().state
      const until = state.attempt?.verifyUntil ?? 0
      const late = verified(state, { kind: 'unreadable', reconnectNotice: null }, until)
      expect(late.state.bookingDisabled).not.toBeNull()
    })

    it('never applies to an unknown outcome the platform did not call gone (a timeout)', () => {
      const reads = Array.from({ length: 30 }, (_, i) => i * 20_000) // until just before its 10-minute window closes
      const decision = absentAt(verifying({ outcome: 'unknown' }), reads)
      expect(decision.state.status).toBe('awaiting_verification')
      const end = verified(decision.state, { kind: 'absent' }, attemptOf().verifyUntil)
      expect(end.state.bookingDisabled).not.toBeNull()
    })
  })

  it('expires a request whose booking never landed after its expiry passed', () => {
    const state = verifying({ outcome: 'refused', refusal: 'slot_gone' })
    const decision = verified(state, { kind: 'absent' }, state.expiresAt + 1)
    expect(decision.state.status).toBe('expired')
    expect(decision.state.watching).toEqual([])
  })
})
