// The calendar pre-check's rule: find only where the calendar says something is
// open, every date at the guard cadence anyway, find when the calendar fails or answers oddly,
// release bursts and device checks straight to find, an operator switch to turn it off.
import { describe, expect, it } from 'vitest'
import type { CalendarStatus } from '../../src/platform/api'
import {
  type CalendarView,
  calendarSettingsFrom,
  DEFAULT_GUARD_MS,
  needsCalendar,
  type PollSituation,
  pollKind,
} from '../../src/watching/calendar-check'
import { NOW } from './fixtures'

const says = (status: CalendarStatus | undefined): CalendarView => ({
  kind: 'answered',
  status,
})

const situation = (over: Partial<PollSituation> = {}): PollSituation => ({
  settings: { on: true, guardMs: DEFAULT_GUARD_MS },
  bursting: false,
  viaDevice: false,
  sawTables: false,
  calendar: says('sold_out'),
  lastFindAt: NOW - 60_000,
  now: NOW,
  ...over,
})

describe('the calendar pre-check', () => {
  it('skips find where the calendar says nothing is open (sold out, closed, not yet released)', () => {
    expect(pollKind(situation({ calendar: says('sold_out') }))).toEqual({ kind: 'skip' })
    expect(pollKind(situation({ calendar: says('closed') }))).toEqual({ kind: 'skip' })
    expect(pollKind(situation({ calendar: says('not_available') }))).toEqual({ kind: 'skip' })
  })

  it('finds where the calendar says available', () => {
    expect(pollKind(situation({ calendar: says('available') }))).toEqual({ kind: 'find', why: 'available' })
  })

  it('finds every date at the guard cadence (10 minutes by default), whatever the calendar says', () => {
    expect(pollKind(situation({ lastFindAt: NOW - DEFAULT_GUARD_MS + 1 }))).toEqual({ kind: 'skip' })
    expect(pollKind(situation({ lastFindAt: NOW - DEFAULT_GUARD_MS }))).toEqual({ kind: 'find', why: 'guard' })
    expect(pollKind(situation({ lastFindAt: null }))).toEqual({ kind: 'find', why: 'guard' })
    expect(DEFAULT_GUARD_MS).toBe(600_000)
  })

  it('falls back to find when the calendar failed, left the date out, or used a word it does not know', () => {
    expect(pollKind(situation({ calendar: { kind: 'failed' } }))).toEqual({ kind: 'find', why: 'calendar_failed' })
    expect(pollKind(situation({ calendar: says(undefined) }))).toEqual({ kind: 'find', why: 'calendar_odd' })
    expect(pollKind(situation({ calendar: says('unknown') }))).toEqual({ kind: 'find', why: 'calendar_odd' })
  })

  it('sends release bursts and paired-device checks straight to find, without asking the calendar', () => {
    expect(pollKind(situation({ bursting: true }))).toEqual({ kind: 'find', why: 'burst' })
    expect(pollKind(situation({ viaDevice: true }))).toEqual({ kind: 'find', why: 'device' })
    expect(needsCalendar(situation({ bursting: true }))).toBe(false)
    expect(needsCalendar(situation({ viaDevice: true }))).toBe(false)
    expect(needsCalendar(situation())).toBe(true)
  })

  it('finds when the last find saw tables: the calendar alone never changes what was seen', () => {
    expect(pollKind(situation({ sawTables: true }))).toEqual({ kind: 'find', why: 'seen' })
    expect(needsCalendar(situation({ sawTables: true }))).toBe(false)
  })

  it('is turned off by the operator switch, and the guard is configurable (at least a minute)', () => {
    const off = calendarSettingsFrom({ CALENDAR_PRECHECK: 'off' })
    expect(pollKind(situation({ settings: off }))).toEqual({ kind: 'find', why: 'off' })
    expect(needsCalendar(situation({ settings: off }))).toBe(false)
    expect(calendarSettingsFrom({})).toEqual({ on: true, guardMs: DEFAULT_GUARD_MS })
    expect(calendarSettingsFrom({ CALENDAR_GUARD_SECONDS: '300' }).guardMs).toBe(300_000)
    expect(calendarSettingsFrom({ CALENDAR_GUARD_SECONDS: '5' }).guardMs).toBe(60_000)
    expect(calendarSettingsFrom({ CALENDAR_GUARD_SECONDS: 'soon' }).guardMs).toBe(DEFAULT_GUARD_MS)
  })
})
