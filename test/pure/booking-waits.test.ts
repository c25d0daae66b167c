// Tables an approved auto_book request tells rather than tries: while
// booking waits for a reconnect (watching goes on), and at venues the service cannot book.
// Either way no call is made for them, so nothing loops; a reconnect tries them again.
import { describe, expect, it } from 'vitest'
import { decide } from '../../src/request-aggregate/decide'
import type { RequestEvent } from '../../src/request-aggregate/events'
import type { RequestState } from '../../src/request-aggregate/state'
import { attemptOf, DAY, KEY, NOW, offerOf, ofKind, seen, stateIn, VENUE } from './fixtures'

const keyOf = (time: string) => `${VENUE}|${DAY}|${time}|Dining Room`
const woke: RequestEvent = { kind: 'connection', state: 'ok', reconnectNotice: null }

/** An approved request whose offer check found the session over: booking waits for a reconnect. */
function waitingForReconnect(): RequestState {
  const checked = { kind: 'offer_checked', offer: offerOf('19:30'), answer: { kind: 'no_connection', reconnectNotice: 7 } } as const
  return decide({ ...stateIn('active'), checkingOffer: NOW - 10 }, checked, NOW).state
}

describe('booking that waits for a reconnect', () => {
  it('tells later tables "reconnect to book" at once, with no offer check and no second reconnect notice', () => {
    const decision = decide(waitingForReconnect(), seen('20:00'), NOW + 60_000)
    expect(ofKind(decision.effects, 'check_offer')).toEqual([])
    expect(ofKind(decision.effects, 'notify').map((e) => e.notice.type)).not.toContain('reconnect')
    expect(decision.state.digest?.tables.map((t) => [t.time, t.waitsFor])).toEqual([
      ['19:30', 'reconnect'],
      ['20:00', 'reconnect'],
    ])
    expect(decision.state.reconnectToBook).toEqual([keyOf('19:30'), keyOf('20:00')])
    expect(decision.state.watching).toEqual([KEY])
    expect(decision.reply.watching).toBe(true)
  })

  it('tries the tables again once the account is back: subscribes again (the slots come again) and books the first', () => {
    const waiting = decide(waitingForReconnect(), seen('20:00'), NOW + 60_000).state
    const reconnected = decide(waiting, woke, NOW + 120_000)
    expect(reconnected.state.reconnectToBook).toBeNull()
    expect(reconnected.state.alerted).not.toContain(keyOf('19:30'))
    expect(reconnected.state.alerted).not.toContain(keyOf('20:00'))
    expect(reconnected.state.statusReason).toBeNull()
    expect(ofKind(reconnected.effects, 'subscribe')).toHaveLength(1)
    // The availability object delivers the tables still open: the earliest is checked for booking.
    const again = decide(reconnected.state, seen('19:30', '20:00'), NOW + 130_000)
    expect(ofKind(again.effects, 'check_offer').map((e) => e.offer.slot.time)).toEqual(['19:30'])
  })

  it('is not woken by the answer of its own subscription, only by news that booking may work', () => {
    const waiting = waitingForReconnect()
    const subscribed = decide(waiting, { ...woke, subscribed: true }, NOW + 60_000)
    expect(subscribed.state.reconnectToBook).toEqual([keyOf('19:30')])
  })

  it('keeps the reconnect wait across an update, and ends it when the account comes back while unapproved', () => {
    const waiting = waitingForReconnect()
    const unapproved: RequestState = { ...waiting, status: 'needs_approval', approvedRevision: null, revision: 2 }
    const back = decide(unapproved, woke, NOW + 60_000)
    expect(back.state.reconnectToBook).toBeNull()
    expect(back.state.status).toBe('needs_approval')
    expect(ofKind(back.effects, 'subscribe')).toEqual([])
  })

  it('goes back to watching with the table waiting for a reconnect when the sign-in was refused at the book call', () => {
    const refused = { ...stateIn('awaiting_verification'), attempt: attemptOf({ outcome: 'refused', refusal: 'reauth' }) }
    const decision = decide(
      refused,
      { kind: 'verification_answer', attemptAt: attemptOf().createdAt, answer: { kind: 'unreadable', reconnectNotice: 9 } },
      NOW,
    )
    expect(decision.state.status).toBe('active')
    expect(decision.state.attempt).toBeNull()
    expect(decision.state.bookingDisabled).toBeNull()
    expect(decision.state.reconnectToBook).toEqual([keyOf('19:30')])
    expect(ofKind(decision.effects, 'notify').map((e) => e.notice)).toEqual([{ type: 'reconnect', connectedAt: 9 }])
  })
})

describe('venues the service cannot book', () => {
  it('tells the tables of a captcha venue, with why, and never checks or books them', () => {
    const checked = decide(
      { ...stateIn('active'), checkingOffer: NOW - 10 },
      { kind: 'offer_checked', offer: offerOf('19:30', ['20:00']), answer: { kind: 'unbookable', blocker: 'recaptcha' } },
      NOW,
    )
    expect(checked.effects.filter((e) => e.kind === 'check_offer' || e.kind === 'book')).toEqual([])
    expect(checked.state.digest?.tables.map((t) => t.note)).toEqual([
      expect.stringMatching(/cannot book at this restaurant \(its booking asks for a captcha\): book it on the platform/),
      expect.stringMatching(/captcha/),
    ])
    expect(checked.state.unbookableVenues).toEqual({ [String(VENUE)]: 'recaptcha' })
    expect(checked.state.checkingOffer).toBeNull()
    // Later tables there are told at once: no offer check, so no loop.
    const later = decide(checked.state, seen('21:00'), NOW + 60_000)
    expect(ofKind(later.effects, 'check_offer')).toEqual([])
    expect(later.state.digest?.tables.map((t) => t.time)).toContain('21:00')
  })

  it('learns it from a refusal of the book call that asks for a captcha, and never tries that venue again', () => {
    const refused = { ...stateIn('awaiting_verification'), attempt: attemptOf({ outcome: 'refused', refusal: 'recaptcha_required' }) }
    const decision = decide(refused, { kind: 'verification_answer', attemptAt: attemptOf().createdAt, answer: { kind: 'absent' } }, NOW)
    expect(decision.state.status).toBe('active')
    expect(decision.state.unbookableVenues).toEqual({ [String(VENUE)]: 'recaptcha' })
    const later = decide(decision.state, seen('21:00'), NOW + 60_000)
    expect(ofKind(later.effects, 'check_offer')).toEqual([])
  })

  it("words a Tock venue's tables as Tock's", () => {
    const checked = decide(
      { ...stateIn('active'), checkingOffer: NOW - 10 },
      { kind: 'offer_checked', offer: offerOf('19:30'), answer: { kind: 'unbookable', blocker: 'tock' } },
      NOW,
    )
    expect(checked.state.digest?.tables[0]?.note).toMatch(/its tables are Tock's/)
  })

  it('still books elsewhere: the blocker is one venue’s', () => {
    const blocked = { ...stateIn('active'), unbookableVenues: { '99999': 'tock' as const } }
    const decision = decide(blocked, seen('19:30'), NOW)
    expect(ofKind(decision.effects, 'check_offer')).toHaveLength(1)
  })
})
