// The one budget holds across many availability objects: 24 venue-days of one
// request, polled as fast as the test can, make no more platform calls (find and calendar, as the
// sandbox counts them) than the budget allows; the others wait, and /health shows the shortfall.
import { env, runInDurableObject, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { budgetObject } from '../../src/budget/budget'
import { connectPlatform } from '../../src/executors/connection'
import { addDays } from '../../src/lib/zoned-time'
import { WebClient } from '../web/web-client'
import { availabilityOf, control, createRequest, nextInterval, runPoll, setUp, VENUE } from './world'

// Calls a second, set on the service's budget object for this test: below the 0.4 a second that
// 24 venue-days checked every minute want, so the budget, not the cadence, limits them.
const BUDGET = 0.25

describe('the service-wide budget', () => {
  it('holds across 24 availability objects polled at once, and /health shows demand and shortfall', async () => {
    const { token, day, spec } = await setUp()
    const days = Array.from({ length: 24 }, (_, i) => addDays(day, i))
    await createRequest(token, spec({ dates: days, earliest_time: '17:00', latest_time: '23:45' }))
    await budgetObject(env).setBudget(BUDGET)
    try {
      const callsOf = async () => {
        const c = await control().calls()
        return (c.find ?? 0) + (c.calendar ?? 0)
      }
      const before = await callsOf()
      const started = Date.now()
      // Every object is due again at once, round after round, for about 4 s.
      while (Date.now() - started < 4_000) {
        await Promise.all(days.map((d) => nextInterval(d).then(() => runPoll(d))))
      }
      const seconds = (Date.now() - started) / 1000
      const made = (await callsOf()) - before
      // Half a second of calls at once (the bucket's burst), then the rate; 24 objects wanted far more.
      expect(made).toBeGreaterThan(0)
      expect(made).toBeLessThanOrEqual(Math.ceil(BUDGET * (seconds + 0.5)) + 1)
      const health = await SELF.fetch('http://localhost/health', { headers: { Authorization: 'Bearer test-only-operator-token' } })
      const body = await health.json<{
        budget?: { callsPerSecond: number; demand: Record<string, number>; shortfall: number; stretch: Record<string, number> }
      }>()
      expect(body.budget?.callsPerSecond).toBe(BUDGET)
      expect(body.budget?.shortfall).toBeGreaterThan(0)
      expect(body.budget?.stretch.far).toBeGreaterThan(1) // far dates stretch first
    } finally {
      await budgetObject(env).setBudget(null)
    }
  })

  it('shows the diner on the request page how often the platform is checked, and that the budget stretched it', async () => {
    const { day, spec, deps } = await setUp()
    // The page's owner: a person signed in, with a connected platform account and a token of their own.
    const web = new WebClient()
    const email = await web.newUser()
    const owner = await env.DB.prepare('select id from users where email = ?').bind(email).first<{ id: string }>()
    if (!owner) throw new Error('no user')
    await connectPlatform(deps, owner.id, { email: `diner-${owner.id}@example.test`, password: 'secret', acknowledgedRisk: true })
    const ownerToken = await web.createToken()
    const days = Array.from({ length: 24 }, (_, i) => addDays(day, i))
    const made = await createRequest(ownerToken, spec({ dates: days, earliest_time: '17:00', latest_time: '23:45' }))
    const pageCadence = async () => {
      const html = await (await web.get(`/requests/${made.id}`)).text()
      return /<dd id="check-cadence">([^<]*)<\/dd>/.exec(html)?.[1] ?? null
    }
    // Within the budget: every venue-day keeps its planned cadence, and the page says only that.
    await Promise.all(days.map((d) => runPoll(d)))
    expect(await pageCadence()).toMatch(/^about every \d+ min$/)
    // A budget far below what the 24 venue-days want (0.2 a second at one check per 2 min each):
    // their checks are stretched, and the page says so, with the cadence the request planned.
    await budgetObject(env).setBudget(0.05)
    try {
      for (let round = 0; round < 2; round++) await Promise.all(days.map((d) => nextInterval(d).then(() => runPoll(d))))
      expect(await pageCadence()).toMatch(
        /^about every (\d+ min|\d+ h( \d+ min)?) \(every \d+ min planned: the service is sharing its calls/,
      )
    } finally {
      await budgetObject(env).setBudget(null)
    }
  })

  it('tells the budget of a release instant ahead of its burst, so that the budget can hold the window’s room for it', async () => {
    const { token, day, spec } = await setUp()
    const made = await createRequest(token, spec())
    const releaseAt = Date.now() + 60_000
    const filter = { earliest_time: '23:00', latest_time: '23:45', party_size: 2, seating: 'any' } as const
    // The request's own plan, with the venue's release instant for this date a minute from now.
    await availabilityOf(day).subscribe(
      { venueDay: { venueId: VENUE, day, partySize: 2 }, venueName: 'Pomelo Garden', venuePage: null },
      {
        requestId: made.id,
        filter,
        plan: { phases: [{ until: null, intervalMs: 60_000 }], releases: [releaseAt] },
        until: Date.now() + 3_600_000,
      },
    )
    await runPoll(day)
    // Its next check is the burst's start, and the budget already knows the instant: a find and at least one booking's calls.
    expect(await runInDurableObject(availabilityOf(day), (_instance, state) => state.storage.getAlarm())).toBe(releaseAt - 2_000)
    const held = (await budgetObject(env).figures()).releases.find((r) => r.at === releaseAt)
    expect(held?.calls).toBeGreaterThanOrEqual(4)
  })
})
