// A venue whose notes state no release time: its horizon object learns the rule from the
// calendar's last_calendar_day as a new day opens, restaurant search and the request page show
// it, the day that just opened is checked at once, and the next day's check is set for its
// release instant (the burst), for requests made before either day was on sale.
import { env, runDurableObjectAlarm, runInDurableObject, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { connectPlatform } from '../../src/executors/connection'
import { addDays, wallClockAt } from '../../src/lib/zoned-time'
import { approveRequest } from '../../src/request-use-cases/approve'
import { horizonObject } from '../../src/watching/horizon-object'
import { WebClient } from '../web/web-client'
import { availabilityOf, control, createRequest, ledgerOf, runPoll, setUp, specFor, VENUE, ZONE } from './world'

const DAY_MS = 86_400_000

/** The venue's horizon object looks at the calendar now (its alarm, delivered now). */
async function lookAtHorizon(): Promise<void> {
  const stub = horizonObject(env, VENUE)
  await runInDurableObject(stub, (_instance, state) => state.storage.setAlarm(Date.now()))
  await runDurableObjectAlarm(stub)
}

const alarmOf = (day: string) => runInDurableObject(availabilityOf(day), (_instance, state) => state.storage.getAlarm())
const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))

describe('release rules learned from the platform', () => {
  it('learns the rule of a venue with no text rule as a day opens, shows it, checks the new day at once and bursts at the next instant', async () => {
    const { deps } = await setUp()
    const web = new WebClient()
    const email = await web.newUser()
    const owner = await env.DB.prepare('select id from users where email = ?').bind(email).first<{ id: string }>()
    if (!owner) throw new Error('no user')
    const platformEmail = `diner-${owner.id}@example.test`.toLowerCase()
    await connectPlatform(deps, owner.id, { email: platformEmail, password: 'secret', acknowledgedRisk: true })
    const token = await web.createToken()

    // Pomelo Garden's notes state no release time; the platform opens each day 10 days ahead at a
    // time no text states: in a few seconds, today.
    const openAt = Math.ceil((Date.now() + 5_000) / 1000) * 1000
    const wall = wallClockAt(openAt, ZONE)
    const time = `${wall.time}:${String(wall.seconds).padStart(2, '0')}`
    expect(await control().setReleaseRule(VENUE, { days: 10, time, stated: false })).toBe(true)
    const opening = addDays(wall.date, 10)
    const following = addDays(wall.date, 11)
    await control().addSlot({ venueId: VENUE, day: opening, time: '23:00', seating: 'Dining Room', partyMin: 2, partyMax: 2 })

    // Requests made before either day is on sale.
    const spec = (day: string) => specFor(day, { mode: 'auto_book' })
    const first = await createRequest(token, spec(opening))
    await approveRequest({ env }, { requestId: first.id, revision: first.revision, userId: owner.id })
    const second = await createRequest(token, spec(following))
    await approveRequest({ env }, { requestId: second.id, revision: second.revision, userId: owner.id })
    await runPoll(opening) // the day is not on sale yet: nothing to book

    await lookAtHorizon()
    expect(await horizonObject(env, VENUE).learned()).toBeNull()
    await new Promise((resolve) => setTimeout(resolve, openAt + 300 - Date.now()))
    await lookAtHorizon() // the horizon moved: the day opened between the two looks

    const learned = await horizonObject(env, VENUE).learned()
    expect(learned).toMatchObject({ daysInAdvance: 10, moves: 1, previous: null })
    const res = await SELF.fetch('http://localhost/api/v1/restaurants?q=Pomelo', { headers: { Authorization: `Bearer ${token}` } })
    const found = (
      await res.json<{ restaurants: { venue_id: number; release_rule: Record<string, unknown> | null }[] }>()
    ).restaurants.find((r) => r.venue_id === VENUE)
    expect(found?.release_rule).toMatchObject({ days_in_advance: 10, source: 'learned', stated: null })
    expect(Math.abs(minutesOf(String(found?.release_rule?.time_of_day)) - minutesOf(wall.time))).toBeLessThanOrEqual(1)
    const page = await (await web.get(`/requests/${second.id}`)).text()
    expect(page).toMatch(/New days open at \d{1,2}:\d{2}\s?[AP]M ET, 10 days ahead — learned from the platform/)

    // The day that just opened is checked at once (not a minute later), and its table booked.
    expect(await alarmOf(opening)).toBeLessThanOrEqual(Date.now() + 1_000)
    await runPoll(opening)
    expect((await ledgerOf(platformEmail)).map((b) => b.day)).toEqual([opening])
    // The next day bursts at the learned instant, a day on (its object plans the burst from it).
    const planned = await runInDurableObject(availabilityOf(following), (_instance, state) => state.storage.get<number[]>('venueRelease'))
    expect(planned).toHaveLength(1)
    expect(Math.abs((planned?.[0] ?? 0) - (openAt + DAY_MS))).toBeLessThanOrEqual(3_000)
  })
})
