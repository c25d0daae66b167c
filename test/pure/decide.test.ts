// decide(state, event, now) for every event from every status: what the request becomes, what it
// asks the world to do, and what it answers. Pure: no bindings, the clock is an argument.
import { describe, expect, it } from 'vitest'
import { dayWhen } from '../../src/alerts/alert-time'
import { STATUSES, type Status } from '../../src/core/status'
import { decide } from '../../src/request-aggregate/decide'
import type { Effect, RequestEvent } from '../../src/request-aggregate/events'
import { isOpen, type RequestState } from '../../src/request-aggregate/state'
import { attemptOf, DAY, details, KEY, NOW, slotAt, specOf, stateIn, VENUE } from './fixtures'

const venueDay = { venueId: VENUE, day: DAY, partySize: 2 }
const kinds = (effects: Effect[]) => effects.map((e) => e.kind).sort()
const offer = {
  slot: slotAt('19:30'),
  startsAt: Date.parse(`${DAY}T19:30:00-05:00`),
  venueName: 'Pomelo Garden',
  venuePage: null,
  revision: 1,
  rest: [],
}

/** One event of each kind, as it would arrive for a request that is in the matching status. */
const EVENTS: Record<RequestEvent['kind'], RequestEvent> = {
  created: { kind: 'created' },
  approve: { kind: 'approve', revision: 1 },
  update: {
    kind: 'update',
    revision: 1,
    spec: specOf({ latest_time: '22:00' }),
    expiresAt: NOW + 86_400_000,
    idem: { key: 'k1', bodyHash: 'h1' },
  },
  stop: { kind: 'stop' },
  revoke: { kind: 'revoke', reason: 'The access token that created this request was revoked.' },
  transfer_owner: { kind: 'transfer_owner', from: ['pat_test'], to: 'grant_new' },
  slots_seen: { kind: 'slots_seen', venueDay, venueName: 'Pomelo Garden', venuePage: null, checkedAt: NOW - 100, slots: [slotAt('19:30')] },
  checks: { kind: 'checks', venueDay, venueName: 'Pomelo Garden', problem: { says: 'the platform did not answer', reason: null } },
  connection: { kind: 'connection', state: 'reauth', reconnectNotice: null },
  offer_checked: { kind: 'offer_checked', offer, answer: { kind: 'ok', details: details(), held: [] } },
  booking_answer: {
    kind: 'booking_answer',
    attemptAt: attemptOf().createdAt,
    outcome: { kind: 'booked', reservationId: '77' },
    reconnectNotice: null,
  },
  verification_answer: { kind: 'verification_answer', attemptAt: attemptOf().createdAt, answer: { kind: 'found', reservationId: '77' } },
  alarm: { kind: 'alarm' },
  diner_mode: { kind: 'diner_mode', revision: 1, mode: 'alert_only' },
  press: { kind: 'press', slotKey: `${VENUE}|${DAY}|19:30|Dining Room`, terms: '00000000', acceptedFee: null },
  digest_sent: { kind: 'digest_sent', keys: ['60105|2026-12-05|19:00|Dining Room'], days: ['60105:2026-12-05'], at: NOW },
}

interface Expected {
  status: Status
  effects: string[]
  changed: boolean
  refusal?: string
  /** The behaviour, in the test's name. */
  does: string
}

/** What each event does from each status: the whole transition behaviour in one table. */
function expected(event: RequestEvent['kind'], status: Status): Expected {
  const same = (does: string) => ({ status, effects: [], changed: false, does })
  const open = isOpen(status)
  switch (event) {
    case 'created':
      return same('keeps the request as it is (only a request never created is created)')
    case 'approve':
      if (status === 'needs_approval') {
        return { status: 'active', effects: ['mirror', 'subscribe'], changed: true, does: 'activates it and subscribes to its venue-days' }
      }
      return { ...same('refuses: only a request that needs approval can be approved'), refusal: 'request_closed' }
    case 'update':
      if (status === 'needs_approval') {
        return {
          status: 'needs_approval',
          effects: ['mirror', 'notify'],
          changed: true,
          does: 'takes the new revision, still to approve, and asks the user to approve it',
        }
      }
      if (status === 'active') {
        return {
          status: 'needs_approval',
          effects: ['mirror', 'notify', 'unsubscribe'],
          changed: true,
          does: 'takes the new revision, asks the user for approval again (a notice) and leaves its venue-days',
        }
      }
      return status === 'awaiting_verification'
        ? { ...same('refuses while a booking outcome is unknown'), refusal: 'outcome_unknown' }
        : { ...same('refuses: the request is closed'), refusal: 'request_closed' }
    case 'stop':
      if (status === 'needs_approval') return { status: 'stopped', effects: ['mirror'], changed: true, does: 'stops it' }
      if (open) return { status: 'stopped', effects: ['mirror', 'unsubscribe'], changed: true, does: 'stops it and leaves its venue-days' }
      return status === 'stopped'
        ? same('answers as before (stopping twice is harmless)')
        : { ...same('refuses: the request is closed'), refusal: 'request_closed' }
    case 'revoke':
      if (status === 'needs_approval')
        return { status: 'revoked', effects: ['mirror', 'notify'], changed: true, does: 'revokes it and tells the user why' }
      return open
        ? {
            status: 'revoked',
            effects: ['mirror', 'notify', 'unsubscribe'],
            changed: true,
            does: 'revokes it, tells the user why and leaves its venue-days',
          }
        : same('keeps a closed request as it ended')
    case 'transfer_owner':
      // The index moved first; the object takes its new owner whatever its status.
      return { status, effects: [], changed: true, does: 'records the new owner' }
    case 'slots_seen':
      // An approved auto_book request goes straight to the slot's details; the rest is not told.
      return status === 'active'
        ? { status, effects: ['check_offer'], changed: true, does: "goes straight to the matching slot's booking details" }
        : same(status === 'awaiting_verification' ? 'tries nothing while a booking is verified' : 'ignores tables it no longer watches')
    case 'checks':
      return status === 'active' || status === 'awaiting_verification'
        ? { status, effects: [], changed: true, does: 'traces that checks of its venue-day fail' }
        : same('ignores checks of venue-days it no longer watches')
    case 'connection':
      return status === 'active'
        ? { status, effects: ['unsubscribe'], changed: true, does: 'leaves its venue-days until the account is reconnected' }
        : same('keeps its status when the connection changes')
    case 'offer_checked':
      return status === 'active'
        ? { status: 'awaiting_verification', effects: ['book', 'mirror'], changed: true, does: 'records the attempt, then books' }
        : same('books nothing: the status changed while the details were fetched')
    case 'booking_answer':
      return status === 'awaiting_verification'
        ? { status, effects: ['verify'], changed: true, does: 'looks for the booking on the platform account' }
        : same('ignores an answer to an attempt it is not waiting for')
    case 'verification_answer':
      return status === 'awaiting_verification'
        ? {
            status: 'confirmed',
            effects: ['mirror', 'notify', 'unsubscribe'],
            changed: true,
            does: 'confirms it once the account shows the booking, tells the user and leaves its venue-days',
          }
        : same('ignores a verification it is not waiting for')
    case 'alarm':
      return status === 'awaiting_verification'
        ? { status, effects: ['verify'], changed: false, does: 'looks again for the booking in flight' }
        : same(status === 'needs_approval' || status === 'active' ? 'does nothing before expiry' : 'does nothing once closed')
    case 'digest_sent':
      return { status, effects: [], changed: true, does: 'records the digest it sent' }
    case 'diner_mode':
      if (status === 'needs_approval' || status === 'active') {
        return {
          status: 'active',
          effects: ['mirror', 'subscribe'],
          changed: true,
          does: 'switches to "alert me": a new revision that books nothing, watching',
        }
      }
      return status === 'awaiting_verification'
        ? { ...same('refuses while a booking outcome is unknown'), refusal: 'outcome_unknown' }
        : { ...same('refuses: the request is closed'), refusal: 'request_closed' }
    case 'press':
      // No table was told, so none can be pressed; the press and why it booked nothing are kept for its page.
      return { status, effects: [], changed: true, does: 'books nothing for a table it never told, and says why' }
  }
}

const CELLS = STATUSES.flatMap((status) =>
  (Object.keys(EVENTS) as RequestEvent['kind'][]).map((kind) => ({ from: status, kind, want: expected(kind, status) })),
)

describe.each(STATUSES)('from %s', (from) => {
  it.each(CELLS.filter((c) => c.from === from))('on $kind, $want.does', ({ kind, want }) => {
    const state = stateIn(from)
    const decision = decide(state, EVENTS[kind], NOW)
    expect(decision.state.status).toBe(want.status)
    expect(kinds(decision.effects)).toEqual(want.effects)
    expect(decision.state !== state).toBe(want.changed)
    expect(decision.reply.refusal?.code).toBe(want.refusal)
    const shown = decision.state.status !== state.status || decision.state.trace.length !== state.trace.length
    expect(decision.state.updatedAt > state.updatedAt).toBe(shown)
  })
})

describe('the request alarm', () => {
  const later = (s: RequestState) => decide(s, { kind: 'alarm' }, s.expiresAt + 1)

  it('expires an open request at expires_at and leaves its venue-days', () => {
    const active = later(stateIn('active'))
    expect(active.state.status).toBe('expired')
    expect(active.state.statusReason).toBe('Expired; nothing was booked.')
    expect(kinds(active.effects)).toEqual(['mirror', 'notify', 'unsubscribe'])
    expect(active.effects).toContainEqual({
      kind: 'notify',
      to: expect.objectContaining({ requestId: 'sr_test', userId: 'usr_test', partySize: 2, timeZone: 'America/New_York' }),
      notice: { type: 'ended', status: 'expired', reason: 'Expired; nothing was booked.' },
    })
    expect(later(stateIn('needs_approval')).state.statusReason).toBe('Expired before it was approved; nothing was watched.')
  })

  it('verifies a booking in flight before anything else, even after expiry', () => {
    const decision = later(stateIn('awaiting_verification'))
    expect(decision.state.status).toBe('awaiting_verification')
    expect(kinds(decision.effects)).toEqual(['verify'])
  })

  it('is set for expiry only while an active request idles, and for the next look while a booking is verified', () => {
    expect(decide(stateIn('active'), { kind: 'alarm' }, NOW).alarmAt).toBe(stateIn('active').expiresAt)
    expect(decide(stateIn('awaiting_verification'), { kind: 'alarm' }, NOW).alarmAt).toBe(attemptOf().checkAt)
    expect(decide(stateIn('confirmed'), { kind: 'alarm' }, NOW).alarmAt).toBeNull()
  })

  it('changes nothing when delivered twice', () => {
    const once = decide(stateIn('active'), { kind: 'alarm' }, NOW)
    const twice = decide(once.state, { kind: 'alarm' }, NOW + 5)
    expect(twice.state).toBe(once.state)
    expect(twice.effects).toEqual([])
  })

  it('subscribes again an active request that is not subscribed (a state from before subscriptions)', () => {
    const decision = decide({ ...stateIn('active'), watching: [] }, { kind: 'alarm' }, NOW)
    expect(kinds(decision.effects)).toEqual(['subscribe'])
    expect(decision.state.watching).toEqual([KEY])
  })
})

describe('approval, updates and stops', () => {
  it('approves only the revision the page showed', () => {
    const decision = decide(stateIn('needs_approval'), { kind: 'approve', revision: 2 }, NOW)
    expect(decision.reply.refusal?.code).toBe('revision_conflict')
  })

  it('keeps an alert_only request active after an update that stays alert_only, and resubscribes its new venue-days', () => {
    const state = stateIn('active', specOf({ mode: 'alert_only' }))
    const moved = specOf({ mode: 'alert_only', dates: ['2026-12-06'], expires_at: '2026-12-06T18:00:00-05:00' })
    const decision = decide(
      state,
      { kind: 'update', revision: 1, spec: moved, expiresAt: NOW + 1e9, idem: { key: 'k', bodyHash: 'h' } },
      NOW,
    )
    expect(decision.state.status).toBe('active')
    expect(decision.state.revision).toBe(2)
    const unsubscribe = decision.effects.find((e) => e.kind === 'unsubscribe')
    const subscribe = decision.effects.find((e) => e.kind === 'subscribe')
    expect(unsubscribe?.kind === 'unsubscribe' && unsubscribe.venueDays.map((v) => v.day)).toEqual([DAY])
    expect(subscribe?.kind === 'subscribe' && subscribe.target.venueDays.map((v) => v.day)).toEqual(['2026-12-06'])
  })

  it('changes nothing for an update with the same spec, but replays it by its key', () => {
    const state = stateIn('active')
    const same = decide(
      state,
      { kind: 'update', revision: 1, spec: state.spec, expiresAt: state.expiresAt, idem: { key: 'k', bodyHash: 'h' } },
      NOW,
    )
    expect(same.state.revision).toBe(1)
    expect(same.state.updatedAt).toBe(state.updatedAt)
    const replay = decide(
      same.state,
      { kind: 'update', revision: 9, spec: state.spec, expiresAt: 0, idem: { key: 'k', bodyHash: 'h' } },
      NOW,
    )
    expect(replay.reply).toEqual({ replayed: true })
    const conflict = decide(
      same.state,
      { kind: 'update', revision: 1, spec: state.spec, expiresAt: 0, idem: { key: 'k', bodyHash: 'other' } },
      NOW,
    )
    expect(conflict.reply.refusal?.code).toBe('idempotency_conflict')
  })

  it('stops a request whose booking is being verified, and keeps verifying it', () => {
    const decision = decide(stateIn('awaiting_verification'), { kind: 'stop' }, NOW)
    expect(decision.state.status).toBe('stopped')
    expect(decision.state.attempt).not.toBeNull()
    expect(decision.alarmAt).toBe(attemptOf().checkAt)
  })

  it('mirrors to the index every change of status, revision, spec or expiry, and nothing else', () => {
    const noted = decide(stateIn('active', specOf({ mode: 'alert_only' })), EVENTS.slots_seen, NOW)
    expect(kinds(noted.effects)).toEqual(['send_digest'])
    const stopped = decide(stateIn('active'), { kind: 'stop' }, NOW)
    const mirror = stopped.effects.find((e) => e.kind === 'mirror')
    expect(mirror?.kind === 'mirror' && mirror.row).toMatchObject({ status: 'stopped', updatedAt: stopped.state.updatedAt })
  })
})

describe('the platform connection', () => {
  it('leaves the venue-days and waits while the connection is missing, and watches again once connected', () => {
    const waiting = decide(stateIn('active'), { kind: 'connection', state: 'missing', reconnectNotice: null }, NOW)
    expect(waiting.state.statusReason).toMatch(/connect a reservation platform account/)
    expect(waiting.state.watching).toEqual([])
    expect(waiting.alarmAt).toBe(NOW + 5 * 60_000)
    const back = decide(waiting.state, { kind: 'connection', state: 'ok', reconnectNotice: null }, NOW + 1)
    expect(back.state.statusReason).toBeNull()
    expect(kinds(back.effects)).toEqual(['subscribe'])
    expect(back.state.watching).toEqual([KEY])
  })

  it('tells the user once to reconnect when a call was rejected', () => {
    const decision = decide(stateIn('needs_approval'), { kind: 'connection', state: 'reauth', reconnectNotice: 123 }, NOW)
    expect(decision.effects).toEqual([
      { kind: 'notify', to: expect.objectContaining({ userId: 'usr_test' }), notice: { type: 'reconnect', connectedAt: 123 } },
    ])
  })

  it('traces failing checks, shows a block as the status reason while it lasts, and clears it when checks work again', () => {
    const unanswered = decide(stateIn('active'), EVENTS.checks, NOW)
    expect(unanswered.state.trace.at(-1)?.message).toBe(`Could not check Pomelo Garden on ${dayWhen(DAY)}: the platform did not answer.`)
    expect(unanswered.state.statusReason).toBeNull()
    const problem = {
      says: 'the platform is blocking checks (a CloudFront error (X-Cache))',
      reason: 'The platform is blocking our checks.',
    }
    const blocked = decide(stateIn('active'), { kind: 'checks', venueDay, venueName: 'Pomelo Garden', problem }, NOW)
    expect(blocked.state.statusReason).toBe('The platform is blocking our checks.')
    const worse = decide(unanswered.state, { kind: 'checks', venueDay, venueName: 'Pomelo Garden', problem }, NOW)
    expect(worse.state.statusReason).toBe('The platform is blocking our checks.')
    const fine = decide(blocked.state, { kind: 'checks', venueDay, venueName: 'Pomelo Garden', problem: null }, NOW + 1)
    expect(fine.state.statusReason).toBeNull()
    expect(fine.state.trace.at(-1)?.message).toBe(`Checks of Pomelo Garden on ${dayWhen(DAY)} work again.`)
  })

  it('tells an availability object that a request not watching its venue-day is gone', () => {
    expect(decide(stateIn('stopped'), EVENTS.slots_seen, NOW).reply.watching).toBe(false)
    expect(decide(stateIn('active'), EVENTS.slots_seen, NOW).reply.watching).toBe(true)
  })
})
