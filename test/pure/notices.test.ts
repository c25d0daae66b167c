// The notices decide() asks for besides tables (issue 16, item 2): waiting for approval, a day
// before an unapproved request expires, expired or revoked, booked with the details, and the
// platform blocking checks. Pure: the clock is an argument.
import { describe, expect, it } from 'vitest'
import { decide } from '../../src/requests/decide'
import type { Effect, Notice } from '../../src/requests/events'
import { initialState } from '../../src/requests/state'
import { attemptOf, KEY, NOW, specOf, stateIn, VENUE } from './fixtures'

const HOUR = 60 * 60 * 1000
const notices = (effects: Effect[]): Notice[] => effects.flatMap((e) => (e.kind === 'notify' ? [e.notice] : []))

describe('notices', () => {
  it('asks the user to approve a new auto_book request, and each new revision of one', () => {
    const fresh = initialState({
      id: 'sr_1',
      userId: 'usr_1',
      principalId: 'pat_1',
      spec: specOf(),
      expiresAt: NOW + 72 * HOUR,
      createdAt: NOW,
    })
    const created = decide(fresh, { kind: 'created' }, NOW)
    expect(notices(created.effects)).toEqual([
      { type: 'approval_needed', revision: 1, expiresAt: NOW + 72 * HOUR, timeZone: 'America/New_York' },
    ])
    const update = {
      kind: 'update',
      revision: 1,
      spec: specOf({ party_size: 3 }),
      expiresAt: NOW + 72 * HOUR,
      idem: { key: 'k', bodyHash: 'h' },
    } as const
    expect(notices(decide(created.state, update, NOW + 1).effects)).toEqual([
      { type: 'approval_needed', revision: 2, expiresAt: NOW + 72 * HOUR, timeZone: 'America/New_York' },
    ])
    const alertOnly = initialState({
      id: 'sr_2',
      userId: 'usr_1',
      principalId: 'pat_1',
      spec: specOf({ mode: 'alert_only' }),
      expiresAt: NOW + HOUR,
      createdAt: NOW,
    })
    expect(notices(decide(alertOnly, { kind: 'created' }, NOW).effects)).toEqual([])
  })

  it('warns once, a day before an unapproved request expires', () => {
    const waiting = stateIn('needs_approval')
    const warnAt = waiting.expiresAt - 24 * HOUR
    expect(decide(waiting, { kind: 'alarm' }, NOW).alarmAt).toBe(warnAt)
    const warned = decide(waiting, { kind: 'alarm' }, warnAt)
    expect(notices(warned.effects)).toEqual([
      { type: 'expires_soon', revision: 1, expiresAt: waiting.expiresAt, timeZone: 'America/New_York' },
    ])
    expect(warned.alarmAt).toBe(waiting.expiresAt)
    // The alarm delivered twice warns once.
    expect(decide(warned.state, { kind: 'alarm' }, warnAt + 5).effects).toEqual([])
    // No warning for a request that had less than a day to live: its approval notice said when it expires.
    const short = { ...waiting, createdAt: waiting.expiresAt - 20 * HOUR }
    expect(decide(short, { kind: 'alarm' }, short.createdAt).alarmAt).toBe(short.expiresAt)
    // An approved request is not warned.
    expect(decide(stateIn('active'), { kind: 'alarm' }, warnAt).effects).toEqual([])
  })

  it('tells why a request was revoked', () => {
    const reason = 'The access token that created this request was revoked.'
    expect(notices(decide(stateIn('active'), { kind: 'revoke', reason }, NOW).effects)).toEqual([
      { type: 'ended', status: 'revoked', reason },
    ])
    expect(decide(stateIn('stopped'), { kind: 'revoke', reason }, NOW).effects).toEqual([])
  })

  it('tells the booked table with its seating, party and cancellation terms', () => {
    const attempt = attemptOf()
    const found = decide(
      stateIn('awaiting_verification'),
      { kind: 'verification_answer', attemptAt: attempt.createdAt, answer: { kind: 'found', reservationId: '77' } },
      NOW,
    )
    expect(notices(found.effects)).toEqual([
      {
        type: 'booked',
        booking: {
          venueName: attempt.venueName,
          day: attempt.day,
          time: attempt.time,
          timeZone: 'America/New_York',
          partySize: attempt.partySize,
          seatingType: attempt.seatingType,
          cancellationFee: attempt.cancellationFee,
          freeCancellationUntil: attempt.freeCancellationUntil,
        },
      },
    ])
  })

  it('tells the user when the platform blocks checks, not when a check merely fails', () => {
    const venueDay = { venueId: VENUE, day: '2026-12-05', partySize: 2 }
    const blocked = {
      says: 'the platform blocked the check (HTTP 403)',
      reason: 'The platform is blocking checks; retrying in 20 minutes.',
    }
    const decision = decide(stateIn('active'), { kind: 'checks', venueDay, venueName: 'Pomelo Garden', problem: blocked }, NOW)
    expect(notices(decision.effects)).toEqual([
      { type: 'checks_blocked', venueName: 'Pomelo Garden', day: '2026-12-05', says: blocked.says, at: NOW },
    ])
    const passing = { says: 'the platform did not answer', reason: null }
    expect(decide(stateIn('active'), { kind: 'checks', venueDay, venueName: 'Pomelo Garden', problem: passing }, NOW).effects).toEqual([])
    expect(stateIn('active').watching).toEqual([KEY])
  })
})
