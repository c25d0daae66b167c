// The transition table and the one transition() every change goes through.
import { describe, expect, it } from 'vitest'
import { STATUSES, type Status } from '../../src/core/status'
import { canMove, IllegalTransition, isOpen, TRACE_LIMIT, transition } from '../../src/request-aggregate/state'
import { NOW, stateIn } from './fixtures'

const ALLOWED: Record<Status, Status[]> = {
  needs_approval: ['active', 'expired', 'stopped', 'revoked'],
  active: ['awaiting_verification', 'confirmed', 'needs_approval', 'expired', 'stopped', 'revoked'],
  awaiting_verification: ['confirmed', 'active', 'expired', 'stopped', 'revoked'],
  confirmed: [],
  expired: [],
  stopped: [],
  revoked: [],
}

describe('the transition table', () => {
  it.each(STATUSES)('lets %s move only where design.md says, and always stay', (from) => {
    for (const to of STATUSES) expect(canMove(from, to)).toBe(from === to || ALLOWED[from].includes(to))
  })

  it('treats exactly needs_approval, active and awaiting_verification as open', () => {
    expect(STATUSES.filter(isOpen)).toEqual(['needs_approval', 'active', 'awaiting_verification'])
  })
})

describe('transition()', () => {
  it('refuses a move the table does not allow', () => {
    expect(() => transition(stateIn('confirmed'), { to: 'active' }, NOW)).toThrow(IllegalTransition)
    expect(() => transition(stateIn('needs_approval'), { to: 'confirmed' }, NOW)).toThrow(IllegalTransition)
  })

  it('moves updatedAt strictly forward on a visible change, even with a clock that stands still or goes back', () => {
    const state = stateIn('active')
    const once = transition(state, { trace: 'one' }, state.updatedAt - 5_000)
    const twice = transition(once, { reason: 'two' }, state.updatedAt - 5_000)
    expect(once.updatedAt).toBe(state.updatedAt + 1)
    expect(twice.updatedAt).toBe(state.updatedAt + 2)
  })

  it('keeps updatedAt for bookkeeping the view does not show', () => {
    const state = stateIn('active')
    expect(transition(state, { patch: { watching: [], alerted: ['x'] } }, NOW).updatedAt).toBe(state.updatedAt)
  })

  it('sets status, reason and trace together, and keeps the trace bounded', () => {
    let state = stateIn('active')
    for (let i = 0; i < TRACE_LIMIT + 5; i++) state = transition(state, { trace: `line ${i}` }, NOW + i)
    const stopped = transition(state, { to: 'stopped', reason: 'Stopped.', trace: 'Stopped.' }, NOW + 100)
    expect(stopped).toMatchObject({ status: 'stopped', statusReason: 'Stopped.' })
    expect(stopped.trace).toHaveLength(TRACE_LIMIT)
    expect(stopped.trace.at(-1)).toEqual({ at: NOW + 100, message: 'Stopped.' })
  })
})
