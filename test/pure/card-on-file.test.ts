// Card-on-file venues: a table booked without a card whose venue answers that
// it wants the card on file is booked once more with the card, only when the terms a card on file
// answers for are stated and within the request's limits; otherwise the user is told why. The
// retry is one call, only after that definite refusal, never after an unclear answer.
import { describe, expect, it } from 'vitest'
import type { BookOutcome } from '../../src/platform/api'
import { cardOnFileRule } from '../../src/request-aggregate/booking/card-on-file'
import { decide } from '../../src/request-aggregate/decide'
import type { RequestEvent } from '../../src/request-aggregate/events'
import type { RequestState } from '../../src/request-aggregate/state'
import { attemptOf, details, NOW, offerOf, ofKind, specOf, stateIn, termsOf } from './fixtures'

// The client's words for a bare 402 to a book sent without a card (src/platform/client.ts).
const cardOnFile: BookOutcome = { kind: 'refused', reason: 'card_on_file_required' }
const answer = (outcome: BookOutcome, bookToken: string | null = 'book-token'): RequestEvent => ({
  kind: 'booking_answer',
  attemptAt: attemptOf().createdAt,
  outcome,
  reconnectNotice: null,
  ...(bookToken ? { bookToken } : {}),
})
const verifying = (over: Parameters<typeof attemptOf>[0] = {}): RequestState => ({
  ...stateIn('awaiting_verification'),
  attempt: attemptOf(over),
})

describe('the card-on-file rule', () => {
  const rule = (terms = termsOf(), d = details(), spec = specOf()) => cardOnFileRule({ terms, details: d, spec, now: NOW })

  it('allows the card where the table states a $0 cancellation fee', () => {
    expect(rule(termsOf({ cancellationFee: 0 }))).toEqual({ allowed: true })
    expect(rule(termsOf(), details({ cancellationFee: 0 }))).toEqual({ allowed: true })
  })

  it('refuses it where no cancellation fee is stated: what a card on file could be charged is unknown', () => {
    expect(rule()).toEqual({ allowed: false, why: expect.stringMatching(/wants a card on file.*states no cancellation fee/) })
  })

  it('refuses it where the fee a card on file answers for is above the limit, or its deadline too close', () => {
    const big = rule(termsOf({ cancellationFee: 40 }), details(), specOf({ max_cancellation_fee_per_person: 25 }))
    expect(big).toEqual({ allowed: false, why: expect.stringMatching(/\$40 per person cancellation fee, above the \$25 limit/) })
    const soon = rule(termsOf({ cancellationFee: 10 }), details({ freeCancellationUntil: NOW + 3_600_000 }))
    expect(soon).toEqual({ allowed: false, why: expect.stringMatching(/free cancellation ends less than 3 hours after booking/) })
    const noDeadline = rule(termsOf({ cancellationFee: 10 }))
    expect(noDeadline).toEqual({ allowed: false, why: expect.stringMatching(/no free-cancellation deadline/) })
  })
})

describe('a card-on-file refusal', () => {
  it('is decided with the attempt: a free table stating its $0 fee may take the card, one stating nothing may not', () => {
    const stated = decide(
      { ...stateIn('active'), checkingOffer: NOW - 10 },
      {
        kind: 'offer_checked',
        offer: offerOf('19:30', [], termsOf({ cancellationFee: 0 })),
        answer: { kind: 'ok', details: details(), held: [] },
      },
      NOW,
    )
    expect(stated.state.attempt).toMatchObject({ needsCard: false, cardOnFile: { allowed: true }, retriedWithCard: false })
    const unstated = decide(
      { ...stateIn('active'), checkingOffer: NOW - 10 },
      { kind: 'offer_checked', offer: offerOf('19:30'), answer: { kind: 'ok', details: details(), held: [] } },
      NOW,
    )
    expect(unstated.state.attempt?.cardOnFile).toEqual({ allowed: false, why: expect.stringMatching(/states no cancellation fee/) })
  })

  it('books once more with the card, stored before the call, with its own work id', () => {
    const decision = decide(verifying(), answer(cardOnFile), NOW)
    const books = ofKind(decision.effects, 'book')
    expect(books).toHaveLength(1)
    expect(books[0]?.bookToken).toBe('book-token')
    expect(books[0]?.attempt).toMatchObject({ needsCard: true, retriedWithCard: true, outcome: 'pending' })
    expect(decision.state.attempt).toMatchObject({ needsCard: true, retriedWithCard: true })
    expect(decision.state.status).toBe('awaiting_verification')
    expect(ofKind(decision.effects, 'verify')).toEqual([])
    expect(decision.state.trace.at(-1)?.message).toMatch(/wants a card on file: booking Pomelo Garden, .* once more, with the card/)
  })

  it('never books a third time: a second refusal, or the same refusal delivered again, is verified', () => {
    const retried = decide(verifying(), answer(cardOnFile), NOW).state
    const again = decide(retried, answer(cardOnFile), NOW + 1_000)
    expect(ofKind(again.effects, 'book')).toEqual([])
    expect(ofKind(again.effects, 'verify')).toHaveLength(1)
  })

  it('alerts instead when the terms did not allow the card: verified, then told why', () => {
    const why = 'the restaurant wants a card on file to book, and the platform states no cancellation fee for this table'
    const refused = decide(verifying({ cardOnFile: { allowed: false, why } }), answer(cardOnFile), NOW)
    expect(ofKind(refused.effects, 'book')).toEqual([])
    const told = decide(
      refused.state,
      { kind: 'verification_answer', attemptAt: attemptOf().createdAt, answer: { kind: 'absent' } },
      NOW + 1_000,
    )
    expect(told.state.status).toBe('active')
    expect(told.state.digest?.tables[0]?.note).toBe(why)
  })

  it('never retries after an unclear answer, a card already sent, a stop meanwhile, or without the token', () => {
    const cases: [RequestState, RequestEvent][] = [
      [verifying(), answer({ kind: 'unknown', detail: 'timeout' })],
      [verifying({ needsCard: true }), answer(cardOnFile)],
      [{ ...verifying(), status: 'stopped' }, answer(cardOnFile)],
      [verifying(), answer(cardOnFile, null)],
    ]
    for (const [state, event] of cases) {
      const decision = decide(state, event, NOW)
      expect(ofKind(decision.effects, 'book')).toEqual([])
      expect(ofKind(decision.effects, 'verify')).toHaveLength(1)
    }
  })
})
