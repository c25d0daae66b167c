// The calendar pre-check wired into watching, observed on the sandbox's call
// counts and the alerts: after a first find, a venue-day the calendar shows sold out costs no find;
// a table the calendar shows brings a find and an alert; a calendar that lags is caught up by the
// guard find; a calendar that fails falls back to find.
import { env, evictDurableObject, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { DEFAULT_GUARD_MS } from '../../src/watching/calendar-check'
import { availabilityOf, control, createRequest, flushAlerts, notificationsOf, poll, setUp, VENUE } from './world'

const PARTY = 19 // no generated table seats 19: only the test's own tables count
const table = (day: string) => ({ venueId: VENUE, day, time: '23:15', seating: 'Dining Room', partyMin: 19, partyMax: 20 })
const calendarOf = () => env.CALENDARS.get(env.CALENDARS.idFromName(`${VENUE}:${PARTY}`))

async function counts() {
  const c = await control().calls()
  return { find: c.find ?? 0, calendar: c.calendar ?? 0 }
}

/** The next round: the availability object's answer and the calendar's answer in memory are forgotten. */
async function nextRound(day: string) {
  await evictDurableObject(calendarOf()).catch(() => undefined)
  await poll(day, PARTY)
}

describe('the calendar pre-check', () => {
  it('spares the find while the calendar shows nothing, and finds (and alerts) once it shows a table', async () => {
    const { token, userId, day, spec } = await setUp()
    const request = await createRequest(token, spec({ party_size: PARTY }))
    await nextRound(day) // the first check is a find (the guard: no find yet)
    const first = await counts()
    await nextRound(day)
    await nextRound(day)
    const quiet = await counts()
    expect(quiet.find).toBe(first.find)
    expect(quiet.calendar).toBe(first.calendar + 2)

    await control().addSlot(table(day))
    await nextRound(day)
    expect((await counts()).find).toBe(first.find + 1)
    await flushAlerts(request.id)
    expect((await notificationsOf(userId)).map((n) => n.kind)).toEqual(['table_found'])
  })

  it('catches a table a lagging calendar does not show yet with the guard find', async () => {
    const { token, userId, day, spec } = await setUp()
    await control().setCalendarLag(120_000)
    try {
      const request = await createRequest(token, spec({ party_size: PARTY }))
      await nextRound(day)
      await control().addSlot(table(day))
      await nextRound(day) // the calendar, two minutes behind, still shows nothing
      await flushAlerts(request.id)
      expect(await notificationsOf(userId)).toEqual([])
      // Ten minutes after the last find, the guard finds whatever the calendar says.
      await runInDurableObject(availabilityOf(day, PARTY), (_o, state) => state.storage.put('lastFindAt', Date.now() - DEFAULT_GUARD_MS))
      await nextRound(day)
      await flushAlerts(request.id)
      expect((await notificationsOf(userId)).map((n) => n.kind)).toEqual(['table_found'])
    } finally {
      await control().setCalendarLag(0)
    }
  })

  it('falls back to find when the calendar fails', async () => {
    const { token, day, spec } = await setUp()
    await createRequest(token, spec({ party_size: PARTY }))
    await nextRound(day)
    const before = await counts()
    await control().injectFault({ endpoint: 'calendar', kind: '500', count: 3 }) // the client's read and its two retries
    await nextRound(day)
    expect((await counts()).find).toBe(before.find + 1)
  })
})
