// The diner switches a request between "alert me" and "book for me" on its page: booking is the
// approval of the exact revision shown, so the next matching table is tried at once; back to
// alerts, nothing is booked from that moment, and watching goes on.
import { describe, expect, it } from 'vitest'
import { decide } from '../../src/request-aggregate/decide'
import { ofKind, seen, specOf, stateIn } from './fixtures'

describe('switching between "alert me" and "book for me"', () => {
  it('to booking: a new revision, approved by that press, and the next table is tried', () => {
    const alerting = stateIn('active', specOf({ mode: 'alert_only' }))
    expect(ofKind(decide(alerting, seen('19:30'), 0).effects, 'check_offer')).toEqual([])

    const switched = decide(alerting, { kind: 'diner_mode', revision: 1, mode: 'auto_book' }, 1).state
    expect(switched).toMatchObject({ status: 'active', revision: 2, approvedRevision: 2, spec: { mode: 'auto_book' } })
    expect(ofKind(decide(switched, seen('19:30'), 2).effects, 'check_offer')).toHaveLength(1)
  })

  it('refuses a switch to booking of a revision the page no longer shows', () => {
    const alerting = stateIn('active', specOf({ mode: 'alert_only' }))
    const stale = decide(alerting, { kind: 'diner_mode', revision: 7, mode: 'auto_book' }, 1)
    expect(stale.reply.refusal?.code).toBe('revision_conflict')
    expect(stale.state).toBe(alerting)
  })

  it('back to alerts: booking stops at once, watching goes on', () => {
    const booking = stateIn('active', specOf({ mode: 'auto_book' }))
    const switched = decide(booking, { kind: 'diner_mode', revision: 1, mode: 'alert_only' }, 1).state
    expect(switched).toMatchObject({ status: 'active', revision: 2, approvedRevision: null, spec: { mode: 'alert_only' } })
    expect(switched.watching.length).toBeGreaterThan(0)
    expect(ofKind(decide(switched, seen('19:30'), 2).effects, 'check_offer')).toEqual([])
  })
})
