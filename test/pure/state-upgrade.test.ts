// Stored request states across versions: a state written before versions were
// kept (and before the later fields existed) loads in the current shape; a current one loads as
// it is; one written by newer code is refused rather than misread.
import { describe, expect, it } from 'vitest'
import { decide } from '../../src/request-aggregate/decide'
import type { RequestState } from '../../src/request-aggregate/state'
import { STATE_VERSION, upgradeState } from '../../src/request-aggregate/state-upgrade'
import { KEY, NOW, stateIn } from './fixtures'

/** An active request as the first versions stored it: none of the fields added since. */
function storedByOldCode(): RequestState {
  const { failingChecks, checkingOffer, updateKeys, expiryWarned, digest, digestSentAt, toldAt, ...old } = stateIn('active')
  return old as RequestState
}

describe('stored request states', () => {
  it('loads a state stored before versions were kept, with the starting value of every later field', () => {
    const loaded = upgradeState(storedByOldCode(), 0)
    expect(loaded.status).toBe('active')
    expect(loaded.watching).toEqual([KEY])
    expect(loaded.failingChecks).toEqual({})
    expect(loaded.checkingOffer).toBeNull()
    expect(loaded.updateKeys).toEqual({})
    expect(loaded.expiryWarned).toBeNull()
    expect(loaded.digest).toBeNull()
    expect(loaded.digestSentAt).toBeNull()
    expect(loaded.toldAt).toEqual({})
    // And the reducer takes it as it takes any state: a stop ends it.
    expect(decide(loaded, { kind: 'stop' }, NOW).state.status).toBe('stopped')
  })

  it('loads a version 1 state with booking that waits for nothing, and an attempt that never sends the card again', () => {
    const { reconnectToBook, unbookableVenues, ...v1 } = stateIn('awaiting_verification')
    const { cardOnFile, retriedWithCard, ...attempt } = v1.attempt ?? {}
    const loaded = upgradeState({ ...v1, attempt } as RequestState, 1)
    expect(loaded.reconnectToBook).toBeNull()
    expect(loaded.unbookableVenues).toEqual({})
    expect(loaded.attempt).toMatchObject({ cardOnFile: { allowed: false }, retriedWithCard: false, slotKey: v1.attempt?.slotKey })
  })

  it('loads a version 2 state with a told time for each told slot: its last alert, the latest it can have been told', () => {
    const { toldAt, ...rest } = stateIn('active')
    const v2 = { ...rest, alerted: ['60105|2026-12-05|19:00|Dining Room'], digestSentAt: NOW - 60_000, digestDays: ['60105:2026-12-05'] }
    const loaded = upgradeState(v2 as unknown as RequestState, 2)
    expect(loaded.toldAt).toEqual({ '60105|2026-12-05|19:00|Dining Room': NOW - 60_000 })
    expect('digestDays' in loaded).toBe(false)
  })

  it('loads a version 3 state with no attempt still looked for after its window', () => {
    const { unsettled, ...v3 } = stateIn('active')
    const loaded = upgradeState(v3 as RequestState, 3)
    expect(loaded.unsettled).toBeNull()
    expect(loaded).toMatchObject({ pressable: {}, press: null })
  })

  it('loads a version 4 state with no told table kept for a press, and none under way', () => {
    const { pressable, press, ...v4 } = stateIn('active')
    expect(upgradeState(v4 as RequestState, 4)).toMatchObject({ pressable: {}, press: null, status: 'active' })
  })

  it('loads a state of the current version as it was stored', () => {
    const current = stateIn('awaiting_verification')
    expect(upgradeState(current, STATE_VERSION)).toBe(current)
  })

  it('refuses a state stored by a newer version of the service', () => {
    expect(() => upgradeState(stateIn('active'), STATE_VERSION + 1)).toThrow(/newer than this code/)
  })
})
