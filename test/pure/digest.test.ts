// Table alerts as digests: one alert per poll however many tables and venue-days it found,
// grouped by restaurant and date. A table not told yet goes at once; the per-request gap only
// keeps a table that went and came back from being told again too soon. Booking never waits for
// a digest. Pure: the clock is an argument.
import { describe, expect, it } from 'vitest'
import { digestKey, GATHER_MS, PENDING_LIMIT, withinGap } from '../../src/alerts/digest'
import { digestAlert } from '../../src/alerts/digest-alert'
import { pushMessageOf } from '../../src/notifications/push/message'
import { webhookPayload } from '../../src/notifications/webhook-body'
import { decide } from '../../src/request-aggregate/decide'
import type { Effect, RequestEvent } from '../../src/request-aggregate/events'
import type { RequestState } from '../../src/request-aggregate/state'
import { DAY, NOW, slotAt, specOf, stateIn, termsOf, VENUE } from './fixtures'

const MIN = 60_000
const VENUES = [VENUE, 60106, 60107, 60108, 60109, 60110, 60111, 60112]
const DATES = Array.from({ length: 13 }, (_, i) => `2026-12-${String(5 + i).padStart(2, '0')}`)
const spec = specOf({ mode: 'alert_only', venue_ids: VENUES, dates: DATES, earliest_time: '18:00', latest_time: '22:00' })
const watchingAll = (): RequestState => ({
  ...stateIn('active', spec),
  watching: VENUES.flatMap((v) => DATES.map((d) => `${v}:${d}:2`)),
})
const seen = (venueId: number, day: string, times: string[], at = NOW): RequestEvent => ({
  kind: 'slots_seen',
  venueDay: { venueId, day, partySize: 2 },
  venueName: `Venue ${venueId}`,
  venuePage: `https://resy.com/cities/ny/venues/venue-${venueId}`,
  checkedAt: at,
  slots: times.map((t) => slotAt(t, { venueId, day })),
})
const sends = (effects: Effect[]) => effects.filter((e): e is Extract<Effect, { kind: 'send_digest' }> => e.kind === 'send_digest')

/** Every venue-day of one poll round reports its new tables; then the request's alarm fires. */
function pollRound(state: RequestState, at: number, times: (venueId: number, day: string) => string[]) {
  let s = state
  for (const v of VENUES) for (const d of DATES) s = decide(s, seen(v, d, times(v, d), at), at).state
  return s
}

describe('one alert per poll', () => {
  it('sends one digest for 8 restaurants × 13 dates with dozens of open tables, not one per table', () => {
    const gathered = pollRound(watchingAll(), NOW, (_venue, d) => (DATES.indexOf(d) % 3 === 0 ? ['19:00', '19:30', '21:00'] : ['20:00']))
    expect(gathered.digest?.tables).toHaveLength(8 * (5 * 3 + 8))
    const flushed = decide(gathered, { kind: 'alarm' }, NOW + GATHER_MS)
    const [send, ...more] = sends(flushed.effects)
    expect(more).toEqual([])
    expect(send?.tables).toHaveLength(184)
    // A second alarm while it is sent does not send again.
    expect(sends(decide(flushed.state, { kind: 'alarm' }, NOW + GATHER_MS + 10).effects)).toEqual([])
    const alert = digestAlert(send?.to ?? { requestId: 'x', userId: 'y', partySize: 2 }, send?.tables ?? [], 'https://tw.example')
    // The title says what the alert holds: how many tables, over which dates, and the soonest (a request without a title is named by its party).
    expect(alert.title).toBe('Your table for 2: 184 tables, Sat, Dec 5 to Thu, Dec 17 · soonest Sat, Dec 5 · 7:00 PM ET')
    expect(alert.body.split('\n\n')[0]).toBe(
      `184 tables for 2 at 8 restaurants on 13 dates. The soonest: Venue ${VENUE}, Sat, Dec 5 · 7:00 PM ET. Book on the platform before someone else does.`,
    )
    expect(alert.groups).toHaveLength(104)
    expect(alert.groups?.[0]).toEqual({
      restaurant: `Venue ${VENUE}`,
      venueId: VENUE,
      date: DATES[0],
      timeZone: 'America/New_York',
      tables: ['19:00', '19:30', '21:00'].map((time) =>
        expect.objectContaining({
          time,
          seating: 'Dining Room',
          link: `https://resy.com/cities/ny/venues/venue-${VENUE}?date=${DATES[0]}&seats=2`,
        }),
      ),
    })
    // The primary action first; then each restaurant-date's best times, one link to the venue on that date.
    expect(alert.body.split('\n\n')[1]).toBe(`See all 184 tables: https://tw.example/requests/${send?.to.requestId}`)
    expect(alert.body).toContain(
      `Venue ${VENUE} · Sat, Dec 5 · 3 tables: https://resy.com/cities/ny/venues/venue-${VENUE}?date=2026-12-05&seats=2\n  7:00 PM ET · Dining Room\n  7:30 PM ET · Dining Room\n  9:00 PM ET · Dining Room`,
    )
    // An email lists the ten soonest groups (8 on Dec 5, 2 on Dec 6: 26 tables) and counts the rest truly.
    expect(alert.body).toContain(
      `And 158 more tables at the other restaurants and dates: https://tw.example/requests/${send?.to.requestId}`,
    )
    // A push notification: the same title, then the count, the soonest three and a tap to see them all.
    const push = pushMessageOf(alert, 'https://tw.example')
    expect(push.title).toBe(alert.title)
    expect(push.body).toBe(
      [
        '184 tables for 2 at 8 restaurants on 13 dates.',
        ...VENUES.slice(0, 3).map((v) => `Sat, Dec 5 · 7:00 PM ET · Venue ${v}`),
        'Tap to see all 184 tables.',
      ].join('\n'),
    )
    expect(push.url).toBe(`https://tw.example/requests/${send?.to.requestId}`)
  })

  it('counts every table beyond the listing limit, and no restaurant is crowded out', () => {
    // 8 × 13 restaurant-dates with 4 to 6 tables each at seven restaurants, the eighth (added first)
    // with 18 on one date: well over PENDING_LIMIT (300) tables.
    const times = (n: number) => Array.from({ length: n }, (_, i) => `${18 + Math.floor(i / 12)}:${String((i % 12) * 5).padStart(2, '0')}`)
    let s = decide(watchingAll(), seen(VENUES[7] ?? 0, DATES[0] ?? '', times(18)), NOW).state
    let truth = 18
    for (const v of VENUES.slice(0, 7))
      for (const [i, d] of DATES.entries()) {
        s = decide(s, seen(v, d, times(4 + (i % 3))), NOW).state
        truth += 4 + (i % 3)
      }
    expect(truth).toBeGreaterThan(PENDING_LIMIT)
    expect(s.digest?.tables.length).toBeLessThanOrEqual(PENDING_LIMIT)
    const [send] = sends(decide(s, { kind: 'alarm' }, NOW + GATHER_MS).effects)
    const alert = digestAlert(
      send?.to ?? { requestId: 'x', userId: 'y', partySize: 2 },
      send?.tables ?? [],
      'https://tw.example',
      send?.more,
    )
    expect(alert.body.split('\n\n')[0]).toBe(
      `${truth} tables for 2 at 8 restaurants on 13 dates. The soonest: Venue ${VENUE}, Sat, Dec 5 · 6:00 PM ET. Book on the platform before someone else does.`,
    )
    const counted = (alert.groups ?? []).map((g) => g.tables.length + (g.more ?? 0))
    expect(counted.reduce((a, b) => a + b, 0)).toBe(truth)
    // Every restaurant-date keeps its best times listed; the eighth restaurant's 18 are all counted.
    expect(alert.groups).toHaveLength(7 * 13 + 1)
    expect(Math.min(...(alert.groups ?? []).map((g) => g.tables.length))).toBeGreaterThanOrEqual(3)
    const eighth = alert.groups?.find((g) => g.venueId === VENUES[7])
    expect((eighth?.tables.length ?? 0) + (eighth?.more ?? 0)).toBe(18)
    // Once sent, the counted tables are settled too: nothing is told twice.
    const sent = decide(
      decide(s, { kind: 'alarm' }, NOW + GATHER_MS).state,
      {
        kind: 'digest_sent',
        keys: send?.tables.map((t) => t.key) ?? [],
        days: [...new Set(send?.tables.map((t) => `${t.venueId}:${t.day}`))],
        at: NOW + GATHER_MS,
        ...(send?.more ? { more: send.more } : {}),
      },
      NOW + GATHER_MS + 1,
    )
    expect(sent.state.digest).toBeNull()
    expect(sent.state.trace.at(-1)?.message).toBe(`Alerted the user: ${truth} tables at 8 restaurants on 13 dates, in one alert.`)
  })

  it('settles a sent digest and keeps what arrived meanwhile for the next one', () => {
    const gathered = decide(watchingAll(), seen(VENUE, DAY, ['19:00']), NOW).state
    const flushed = decide(gathered, { kind: 'alarm' }, NOW + GATHER_MS)
    const [send] = sends(flushed.effects)
    const meanwhile = decide(flushed.state, seen(VENUE, DAY, ['19:30']), NOW + GATHER_MS + 1).state
    const sent = decide(
      meanwhile,
      { kind: 'digest_sent', keys: send?.tables.map((t) => t.key) ?? [], days: [`${VENUE}:${DAY}`], at: NOW + GATHER_MS },
      NOW + GATHER_MS + 2,
    )
    expect(sent.state.digest?.tables.map((t) => t.time)).toEqual(['19:30'])
    expect(sent.state.digestSentAt).toBe(NOW + GATHER_MS)
    expect(sent.state.toldAt).toEqual({ [send?.tables[0]?.key ?? '']: NOW + GATHER_MS })
    expect(sent.state.trace.at(-1)?.message).toBe('Alerted the user: 1 table at 1 restaurant on 1 date, in one alert.')
  })

  it('sends a new table at once after an alert a minute ago, and tells a table that came back only once the gap has passed', () => {
    const one = { ...watchingAll(), watching: [`${VENUE}:${DAY}:2`] }
    const first = decide(one, seen(VENUE, DAY, ['19:00']), NOW)
    const [send] = sends(first.effects)
    const key = send?.tables[0]?.key ?? ''
    const told = decide(first.state, { kind: 'digest_sent', keys: [key], days: [`${VENUE}:${DAY}`], at: NOW }, NOW).state
    // A minute later a new table at the same restaurant-date: it goes in the same step.
    const later = decide(told, seen(VENUE, DAY, ['21:00']), NOW + MIN)
    expect(sends(later.effects).map((s) => s.tables.map((t) => t.time))).toEqual([['21:00']])
    expect(withinGap(sends(later.effects)[0]?.tables ?? [], 10 * MIN, NOW + MIN).repeats).toEqual([])
    const second = sends(later.effects)[0]?.tables[0]?.key ?? ''
    const both = decide(later.state, { kind: 'digest_sent', keys: [second], days: [`${VENUE}:${DAY}`], at: NOW + MIN }, NOW + MIN).state
    // 19:00 went and came back two minutes after its alert: sent to the runner as a repeat, which the gap leaves out …
    const back = decide(both, seen(VENUE, DAY, ['19:00']), NOW + 2 * MIN)
    const [repeat] = sends(back.effects)
    expect(repeat?.tables.map((t) => [t.time, t.toldAt])).toEqual([['19:00', NOW]])
    expect(withinGap(repeat?.tables ?? [], 10 * MIN, NOW + 2 * MIN)).toEqual({ send: [], repeats: [key] })
    const settled = decide(back.state, { kind: 'digest_sent', keys: [], days: [], at: NOW + 2 * MIN, repeats: [key] }, NOW + 2 * MIN)
    expect(settled.state.digest).toBeNull()
    expect(settled.state.toldAt[key]).toBe(NOW)
    expect(settled.state.trace).toEqual(both.trace)
    // … and after the gap it is told again, with an alert of its own (not taken for the first one).
    const afterGap = decide(settled.state, seen(VENUE, DAY, ['19:00']), NOW + 12 * MIN)
    const [again] = sends(afterGap.effects)
    expect(withinGap(again?.tables ?? [], 10 * MIN, NOW + 12 * MIN).send.map((t) => t.time)).toEqual(['19:00'])
    expect(digestKey('sr_1', again?.tables ?? [])).not.toBe(digestKey('sr_1', send?.tables ?? []))
    // A table seen again while it still waits to be told is not added twice.
    const waiting = decide(watchingAll(), seen(VENUE, DAY, ['19:00']), NOW).state
    expect(decide(waiting, seen(VENUE, DAY, ['19:00']), NOW + 1).state.digest?.tables).toHaveLength(1)
  })

  it('tells a request watching one venue-day at once, and gathers for one watching several', () => {
    const one = { ...watchingAll(), watching: [`${VENUE}:${DAY}:2`] }
    const told = decide(one, seen(VENUE, DAY, ['19:00']), NOW)
    expect(sends(told.effects).map((s) => s.tables.map((t) => t.time))).toEqual([['19:00']])
    const many = decide(watchingAll(), seen(VENUE, DAY, ['19:00']), NOW)
    expect(sends(many.effects)).toEqual([])
    expect(many.alarmAt).toBe(NOW + GATHER_MS)
  })

  it('never makes booking wait: an approved auto_book request checks the offer at once while a digest waits', () => {
    const approved = { ...stateIn('active'), digest: { tables: [], dueAt: NOW + 9 * MIN, sendingAt: null } }
    const decision = decide(approved, seen(VENUE, DAY, ['19:30']), NOW)
    expect(decision.effects.map((e) => e.kind)).toEqual(['check_offer'])
  })

  it('sends nothing for a request that was stopped with tables waiting', () => {
    const gathered = decide(watchingAll(), seen(VENUE, DAY, ['19:00']), NOW).state
    const stopped = decide(gathered, { kind: 'stop' }, NOW + 1).state
    expect(sends(decide(stopped, { kind: 'alarm' }, NOW + GATHER_MS).effects)).toEqual([])
  })
})

describe('the webhook body', () => {
  const gathered = decide(watchingAll(), seen(VENUE, DAY, ['19:00']), NOW).state
  // A deposit table: its fee in words, and (as for every deposit table) no Book link.
  const tables = (gathered.digest?.tables ?? []).map(({ bookable: _bookable, ...t }) => ({ ...t, fee: 'deposit $50' }))
  const alert = digestAlert(
    { requestId: 'sr_1', userId: 'usr_1', partySize: 2, timeZone: 'America/New_York' },
    tables,
    'https://tw.example',
  )
  const base = {
    kind: alert.kind,
    title: alert.title,
    text: alert.body,
    link: alert.link,
    requestId: 'sr_1',
    groups: alert.groups ?? [],
    sentAt: NOW,
  }

  it('is versioned JSON by default, with the digest’s groups', () => {
    const payload = webhookPayload('json', base)
    expect(payload.headers['content-type']).toBe('application/json')
    expect(JSON.parse(payload.body)).toEqual({
      version: 1,
      kind: 'table_found',
      title: `Your table for 2: a table at Venue ${VENUE}, Sat, Dec 5 · 7:00 PM ET`,
      text: alert.body,
      link: `https://resy.com/cities/ny/venues/venue-${VENUE}?date=${DAY}&seats=2`,
      request_id: 'sr_1',
      sent_at: new Date(NOW).toISOString(),
      groups: [
        {
          restaurant: `Venue ${VENUE}`,
          venue_id: VENUE,
          date: DAY,
          time_zone: 'America/New_York',
          tables: [
            {
              time: '19:00',
              seating: 'Dining Room',
              fee: 'deposit $50',
              note: null,
              link: `https://resy.com/cities/ny/venues/venue-${VENUE}?date=${DAY}&seats=2`,
              book_link: null,
            },
          ],
          more_tables: 0,
        },
      ],
    })
  })

  it('has an ntfy preset (plain text, Title and Click headers) and a Slack preset ({text} with links)', () => {
    const ntfy = webhookPayload('ntfy', base)
    expect(ntfy.headers).toEqual({
      'content-type': 'text/plain; charset=utf-8',
      Title: `Your table for 2: a table at Venue ${VENUE}, Sat, Dec 5 - 7:00 PM ET`,
      Click: base.link,
    })
    expect(ntfy.body).toBe(alert.body)
    const slack = JSON.parse(webhookPayload('slack', base).body) as { text: string }
    expect(slack.text).toBe(
      `*Your table for 2: a table at Venue ${VENUE}, Sat, Dec 5 · 7:00 PM ET*\n\n*Venue ${VENUE}* · Sat, Dec 5\n• <https://resy.com/cities/ny/venues/venue-${VENUE}?date=${DAY}&seats=2|7:00 PM ET> Dining Room · deposit $50`,
    )
  })
})

describe('fees in words', () => {
  it('names a deposit, a card hold with its fee, or nothing', async () => {
    const { feeWords } = await import('../../src/alerts/digest')
    // Per person, as the request's limits are.
    expect(feeWords(termsOf({ isPaid: true, depositFee: 40 }))).toBe('deposit $40 per person')
    expect(feeWords(termsOf({ isPaid: true, cancellationFee: 25 }))).toBe('$25 per person if you cancel late (card held)')
    expect(feeWords(termsOf())).toBeNull()
  })
})
