// The short date patterns of the tool schemas, with the calendar checked in code, accept exactly
// what zod's exact ISO patterns (the schemas' earlier form) accept.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { isCalendarDate, isDateTimeWithOffset } from '../../src/lib/calendar-text'

const exactDate = z.iso.date()
const exactDateTime = z.iso.datetime({ offset: true })

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0')
}

describe('calendar dates', () => {
  it('agrees with the exact pattern on every day of 1999 to 2101 and the days around them', () => {
    const disagreements: string[] = []
    for (const year of [0, 4, 100, 400, 1900, ...Array.from({ length: 103 }, (_, i) => 1999 + i), 9999]) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          const text = `${pad(year, 4)}-${pad(month)}-${pad(day)}`
          if (isCalendarDate(text) !== exactDate.safeParse(text).success) disagreements.push(text)
        }
      }
    }
    expect(disagreements).toEqual([])
  })

  it('refuses what is not YYYY-MM-DD', () => {
    for (const text of ['2026-1-05', '2026-01-5', '20260105', ' 2026-01-05', '2026-01-05 ', '2026-01-05T00:00:00Z', '+2026-01-05']) {
      expect(isCalendarDate(text), text).toBe(false)
      expect(exactDate.safeParse(text).success, text).toBe(false)
    }
  })
})

describe('date-times with an offset', () => {
  it('agrees with the exact pattern', () => {
    const samples = [
      '2026-12-05T23:00:00-05:00',
      '2026-12-05T23:00:00Z',
      '2026-12-05T23:00:00.123Z',
      '2026-12-05T23:00:00.1+14:00',
      '2028-02-29T12:00:00Z',
      '2027-02-29T12:00:00Z',
      '2026-02-30T12:00:00Z',
      '2026-12-05T24:00:00Z',
      '2026-12-05T23:60:00Z',
      '2026-12-05T23:00:60Z',
      '2026-12-05T23:00:00+24:00',
      '2026-12-05T23:00:00+05:60',
      '2026-12-05T23:00Z',
      '2026-12-05T23:00:00',
      '2026-12-05 23:00:00Z',
      '2026-12-05T23:00:00.Z',
      '2026-12-05T23:00:00+0500',
      '2026-13-05T23:00:00Z',
    ]
    for (const text of samples) expect(isDateTimeWithOffset(text), text).toBe(exactDateTime.safeParse(text).success)
  })
})
