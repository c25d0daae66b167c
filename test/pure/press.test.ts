// "Book this table", pure: the diner's press of one told table, through decide(). It books only
// that table, on the terms the page showed (a fee above the limit only once accepted), never a
// deposit, at most once however often it is pressed, and ends with an outcome the page can show.
import { describe, expect, it } from 'vitest'
import { digestAlert } from '../../src/alerts/digest-alert'
import { pushMessageOf } from '../../src/notifications/push/message'
import { webhookPayload } from '../../src/notifications/webhook-body'
import type { SlotTerms } from '../../src/platform/api'
import { termsFingerprint } from '../../src/request-aggregate/booking/press-terms'
import { decide } from '../../src/request-aggregate/decide'
import { recipientOf } from '../../src/request-aggregate/decide-watch'
import type { OfferAnswer, RequestEvent } from '../../src/request-aggregate/events'
import type { RequestState } from '../../src/request-aggregate/state'
import { slotKey } from '../../src/watching/match'
import { attemptOf, DAY, details, NOW, offerOf, ofKind, slotAt, specOf, stateIn, termsOf, VENUE } from './fixtures'

const KEY_1930 = `${VENUE}|${DAY}|19:30|Dining Room`
const cardHold = (fee: number) => termsOf({ isPaid: true, cancellationFee: fee, secsCancelCutOff: 86_400 })

/** An alert_only request told of the 19:30 table with these terms. */
function toldOf(terms: SlotTerms = termsOf(), over: Parameters<typeof specOf>[0] = {}): RequestState {
  const state = stateIn('active', specOf({ mode: 'alert_only', ...over }))
  const news: RequestEvent = {
    kind: 'slots_seen',
    venueDay: { venueId: VENUE, day: DAY, partySize: 2 },
    venueName: 'Pomelo Garden',
    venuePage: null,
    checkedAt: NOW,
    slots: [slotAt('19:30', { terms })],
  }
  return decide(state, news, NOW).state
}

const press = (state: RequestState, terms: SlotTerms = termsOf(), acceptedFee: number | null = null, at = NOW + 1_000) =>
  decide(state, { kind: 'press', slotKey: KEY_1930, terms: termsFingerprint(terms), acceptedFee }, at)

/** The press's check of the platform answered with the table's details: the step that books (or not). */
function checked(state: RequestState, answer: Extract<RequestEvent, { kind: 'offer_checked' }>['answer'], at = NOW + 2_000) {
  const check = ofKind(press(state).effects, 'check_offer')[0]
  if (!check) throw new Error('the press checks nothing')
  return decide(press(state).state, { kind: 'offer_checked', offer: check.offer, answer }, at)
}

describe('Book this table', () => {
  it('books a told table of an alert_only request: checks it, records the attempt, books, and is booked once verified', () => {
    const told = toldOf()
    expect(Object.keys(told.pressable)).toEqual([KEY_1930])
    const pressed = press(told)
    expect(pressed.state.press).toMatchObject({ slotKey: KEY_1930, outcome: 'checking' })
    const [check] = ofKind(pressed.effects, 'check_offer')
    expect(check?.offer).toMatchObject({ pressed: true, rest: [] })
    expect(slotKey(check?.offer.slot ?? slotAt('00:00'))).toBe(KEY_1930)

    const booking = decide(
      pressed.state,
      { kind: 'offer_checked', offer: check?.offer ?? offerOf('19:30'), answer: { kind: 'ok', details: details(), held: [] } },
      NOW + 2_000,
    )
    expect(booking.state.status).toBe('awaiting_verification')
    expect(booking.state.press?.outcome).toBe('booking')
    expect(ofKind(booking.effects, 'book')).toHaveLength(1)

    const attemptAt = booking.state.attempt?.createdAt ?? 0
    const answer = { kind: 'booking_answer', attemptAt, outcome: { kind: 'booked', reservationId: '77' }, reconnectNotice: null } as const
    const verifying = decide(booking.state, answer, NOW + 3_000)
    expect(verifying.state.status).toBe('awaiting_verification') // not before the account shows it
    const verified = decide(
      verifying.state,
      { kind: 'verification_answer', attemptAt, answer: { kind: 'found', reservationId: '77' } },
      NOW + 4_000,
    )
    expect(verified.state.status).toBe('confirmed')
    expect(verified.state.press?.outcome).toBe('booked')
  })

  it('books nothing more when pressed again while the first press is carried out, or after it booked', () => {
    const first = press(toldOf())
    const again = press(first.state)
    expect(again.effects).toEqual([])
    expect(again.state).toBe(first.state)
  })

  it('says "taken" and books nothing when the platform no longer offers the table', () => {
    const gone = checked(toldOf(), { kind: 'gone' })
    expect(gone.state.press?.outcome).toBe('taken')
    expect(gone.state.status).toBe('active')
    expect(ofKind(gone.effects, 'book')).toEqual([])
    expect(gone.state.checkingOffer).toBeNull()
  })

  it('never books a deposit table, whatever is pressed', () => {
    const deposit = termsOf({ isPaid: true, depositFee: 50 })
    const pressed = press(toldOf(deposit), deposit, 50)
    expect(pressed.effects).toEqual([])
    expect(pressed.state.press).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/deposit or prepayment/) })
  })

  it('never books a table with a paid add-on, even one that states no fee, whatever is pressed', () => {
    const addOn = termsOf({ addOnRequired: true })
    const pressed = press(toldOf(addOn), addOn, 100)
    expect(pressed.effects).toEqual([])
    expect(pressed.state.press?.outcome).toBe('refused')
  })

  it('books nothing while an earlier attempt the account never answered for may still have booked the dinner', () => {
    const told = { ...toldOf(), unsettled: { ...attemptOf(), checkAt: NOW + 300_000 } }
    const pressed = press(told)
    expect(pressed.effects).toEqual([])
    expect(pressed.state.press).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/may have gone through/) })
  })

  it('books a fee above the limit only when the diner accepted that exact fee for this table', () => {
    const fee = cardHold(40)
    const told = toldOf(fee, { max_cancellation_fee_per_person: 10 })
    expect(press(told, fee, null).state.press?.outcome).toBe('refused')
    expect(press(told, fee, 30).state.press?.outcome).toBe('refused')
    const accepted = press(told, fee, 40)
    expect(accepted.state.press?.outcome).toBe('checking')
    const [check] = ofKind(accepted.effects, 'check_offer')
    const ok: OfferAnswer = { kind: 'ok', details: details({ cancellationFee: 40 }), held: [] }
    const booked = decide(accepted.state, { kind: 'offer_checked', offer: check?.offer ?? offerOf('19:30'), answer: ok }, NOW + 2_000)
    expect(booked.state.attempt?.cancellationFee).toBe(40)
    expect(ofKind(booked.effects, 'book')).toHaveLength(1)
  })

  it('stops when the terms differ from those the page showed, before the platform is asked', () => {
    const told = toldOf(cardHold(10))
    const pressed = press(told, cardHold(5))
    expect(pressed.effects).toEqual([])
    expect(pressed.state.press?.outcome).toBe('terms_changed')
  })

  it('stops when the terms at booking (the details) differ from those shown, and books nothing', () => {
    const told = toldOf(cardHold(10))
    const pressed = press(told, cardHold(10))
    const [check] = ofKind(pressed.effects, 'check_offer')
    const ok: OfferAnswer = { kind: 'ok', details: details({ cancellationFee: 15 }), held: [] }
    const stopped = decide(pressed.state, { kind: 'offer_checked', offer: check?.offer ?? offerOf('19:30'), answer: ok }, NOW + 2_000)
    expect(stopped.state.press?.outcome).toBe('terms_changed')
    expect(ofKind(stopped.effects, 'book')).toEqual([])
  })

  it('asks to reconnect first when the platform session ended, and books nothing', () => {
    const lapsed = checked(toldOf(), { kind: 'no_connection', reconnectNotice: null })
    expect(lapsed.state.press?.outcome).toBe('reconnect')
    expect(ofKind(lapsed.effects, 'book')).toEqual([])
  })

  it('books nothing at a venue the service cannot book', () => {
    const blocked = checked(toldOf(), { kind: 'unbookable', blocker: 'recaptcha' })
    expect(blocked.state.press).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/captcha/) })
    expect(press(blocked.state).effects).toEqual([]) // and is not tried again
  })

  it('books nothing for a second table once the account holds one for this dinner', () => {
    const held = checked(toldOf(), {
      kind: 'ok',
      details: details(),
      held: [{ reservationId: '5', venueId: VENUE, day: DAY, time: '20:00', partySize: 2, seatingType: 'Bar' }],
    })
    expect(held.state.press?.outcome).toBe('refused')
    expect(ofKind(held.effects, 'book')).toEqual([])
  })
})

describe('the alerts offer "Book this table"', () => {
  const BASE = 'https://tw.example'
  const alertOf = (state: RequestState) => digestAlert(recipientOf(state), state.digest?.tables ?? [], BASE)

  it('on the one table of an alert the service could book: the email line, the table, and the push "Book" action', () => {
    const alert = alertOf(toldOf())
    const book = `${BASE}/requests/sr_test/book?${new URLSearchParams({ table: KEY_1930 })}`
    expect(alert.book).toBe(book)
    expect(alert.groups?.[0]?.tables[0]?.book).toBe(book)
    expect(alert.body).toContain(`Book this table in one press: ${book}`)
    const push = pushMessageOf(alert, BASE)
    expect(push.web_push).toBe(8030)
    const hook = { kind: alert.kind, title: alert.title, text: alert.body, link: alert.link, requestId: 'sr_test', sentAt: NOW }
    const json = JSON.parse(webhookPayload('json', { ...hook, groups: alert.groups ?? [] }).body)
    expect(json.groups[0].tables[0].book_link).toBe(book)
    expect(push.notification).toMatchObject({
      title: alert.title,
      navigate: push.url,
      actions: [{ action: 'book', title: 'Book', navigate: book }],
    })
  })

  it('never on a deposit table: no Book link anywhere, and the push has no action', () => {
    const alert = alertOf(toldOf(termsOf({ isPaid: true, depositFee: 50 })))
    expect(alert.book).toBeUndefined()
    expect(alert.groups?.[0]?.tables[0]?.book).toBeUndefined()
    expect(alert.body).not.toContain('/book?')
    expect(pushMessageOf(alert, BASE).notification.actions).toBeUndefined()
  })

  it('on each bookable table of a longer alert, which opens its list on a tap (no single Book action)', () => {
    const state = stateIn('active', specOf({ mode: 'alert_only' }))
    const news: RequestEvent = {
      kind: 'slots_seen',
      venueDay: { venueId: VENUE, day: DAY, partySize: 2 },
      venueName: 'Pomelo Garden',
      venuePage: null,
      checkedAt: NOW,
      slots: [slotAt('19:30'), slotAt('20:00')],
    }
    const alert = alertOf(decide(state, news, NOW).state)
    expect(alert.groups?.[0]?.tables.map((t) => t.book !== undefined)).toEqual([true, true])
    expect(alert.book).toBeUndefined()
    expect(pushMessageOf(alert, BASE).notification.actions).toBeUndefined()
  })
})

describe('a press that died with its object', () => {
  it('lets a later press go once its check is older than an offer check may take', () => {
    const first = press(toldOf())
    const soon = press(first.state, termsOf(), null, NOW + 30_000)
    expect(soon.effects).toEqual([])
    // The check died (no answer came) and the offer check's hold ran out too: a new press checks again.
    const later = press({ ...first.state, checkingOffer: null }, termsOf(), null, NOW + 120_000)
    expect(ofKind(later.effects, 'check_offer')).toHaveLength(1)
  })
})
