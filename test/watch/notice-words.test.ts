// Notices that name the dinner: approval, expiring, booked, reconnect, ended —
// each names the restaurant(s), the date(s), the time window and the party, in plain words.
import { describe, expect, it } from 'vitest'
import { alertsOf } from '../../src/alerts/alerts'
import type { Notice, Recipient } from '../../src/alerts/notice'

const to: Recipient = {
  requestId: 'sr_1',
  userId: 'usr_1',
  partySize: 6,
  timeZone: 'America/New_York',
  dinner: { title: 'Birthday', venueIds: [60105, 60106], dates: ['2026-12-05', '2026-12-06'], earliest: '19:00', latest: '21:00' },
}
const names = new Map([
  [60105, 'Pomelo Garden'],
  [60106, 'Marrow'],
])
const expiresAt = Date.parse('2026-12-04T15:00:00Z')
const DINNER = 'Birthday for 6 · Pomelo Garden and Marrow · Sat, Dec 5 or Sun, Dec 6 · 7:00 PM to 9:00 PM ET.'

const notices: Notice[] = [
  { type: 'approval_needed', revision: 1, expiresAt, timeZone: 'America/New_York' },
  { type: 'approval_needed', revision: 2, expiresAt, timeZone: 'America/New_York' },
  { type: 'expires_soon', revision: 1, expiresAt, timeZone: 'America/New_York' },
  { type: 'ended', status: 'expired', reason: 'Expired; nothing was booked.' },
  { type: 'reconnect', connectedAt: 1 },
  { type: 'unverified', venueName: 'Marrow', day: '2026-12-05', time: '19:30' },
]
const one = (notice: Notice) => {
  const [alert] = alertsOf(to, notice, 'https://tw.example', names)
  if (!alert) throw new Error('no alert')
  return alert
}

describe('notices that name the dinner', () => {
  it('asks for approval with the restaurants, dates, window and party, and says when it expires', () => {
    const first = one(notices[0] as Notice)
    expect(first.title).toBe('Approve: Birthday for 6 at Pomelo Garden and Marrow · Sat, Dec 5 or Sun, Dec 6')
    expect(first.body).toBe(
      `${DINNER}\n\nYour assistant asked Tablewatch to book this table. Nothing is watched or booked until you approve it. The request expires Fri, Dec 4 · 10:00 AM ET.`,
    )
    expect(one(notices[1] as Notice).body).toContain('Your assistant changed this request. Nothing is watched or booked')
  })

  it('names the dinner in the expiry warning, the ended notice and the reconnect notice (which links to Settings)', () => {
    expect(one(notices[2] as Notice).title).toBe(
      'Expires in a day unless you approve it: Birthday for 6 at Pomelo Garden and Marrow · Sat, Dec 5 or Sun, Dec 6',
    )
    expect(one(notices[3] as Notice).title).toBe('Expired: Birthday for 6 at Pomelo Garden and Marrow · Sat, Dec 5 or Sun, Dec 6')
    const reconnect = one(notices[4] as Notice)
    expect(reconnect.title).toBe('Reconnect your platform account to book Birthday for 6')
    expect(reconnect.body.startsWith(DINNER)).toBe(true)
    expect(reconnect.link).toBe('https://tw.example/settings#platform')
  })

  it('says the booked table, its time in the venue zone and the party', () => {
    const booked = one({
      type: 'booked',
      booking: {
        venueName: 'Marrow',
        day: '2026-12-05',
        time: '19:30',
        timeZone: 'America/New_York',
        partySize: 6,
        seatingType: 'Dining Room',
        cancellationFee: 25,
        freeCancellationUntil: null,
      },
    } as Notice)
    expect(booked.title).toBe('Booked and verified: Marrow, Sat, Dec 5 · 7:30 PM ET, for 6')
    expect(booked.body.startsWith('Birthday for 6. Your table at Marrow')).toBe(true)
  })

  it('uses plain words only', () => {
    for (const notice of notices) {
      const { title, body } = one(notice)
      expect(`${title}\n${body}`).not.toMatch(/revision|slot|restaurant-date|by the user/i)
    }
  })
})
