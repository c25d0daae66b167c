// Venues the service cannot book, against the sandbox platform: Vesper Hall
// asks for a reCAPTCHA at booking (`feature_recaptcha`), Larder & Lamp's tables are Tock's
// (`is_tock_inventory`). Preview and create of an auto_book request say so, and what the request
// does instead; the approval page says it too; the booking path never calls the platform for
// their tables (the sandbox counts no details and no book call), however many come.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { connectPlatform } from '../../src/executors/connection'
import { addDays, todayIn } from '../../src/lib/zoned-time'
import { approveRequest } from '../../src/request-use-cases/approve'
import { depsOf } from '../../src/runtime/deps'
import { findRestaurants } from '../../src/venues/restaurants'
import { api, newKey } from '../helpers/api'
import { WebClient } from '../web/web-client'
import { control, flushAlerts, notificationsOf, poll, specFor, view, ZONE } from './world'

/** A diner signed in on the web (for the approval page), with a token and a connected platform account. */
async function diner() {
  await control().reset()
  const owner = new WebClient()
  const email = await owner.newUser()
  const row = await env.DB.prepare('select id from users where email = ?').bind(email).first<{ id: string }>()
  if (!row) throw new Error('no user')
  const deps = depsOf(env)
  await connectPlatform(deps, row.id, { email: `diner-${row.id}@example.test`, password: 'secret', acknowledgedRisk: true })
  return { owner, userId: row.id, token: await owner.createToken(), deps }
}

async function venueWithRule(
  deps: ReturnType<typeof depsOf>,
  rule: 'recaptcha' | 'tock' | 'gda_concierge' | 'reservation_transfers' | 'other_platform' | 'reopens_later',
) {
  const venue = (await control().venues()).find((v) => v.bookingRule === rule)
  if (!venue) throw new Error(`the sandbox has no ${rule} venue`)
  await findRestaurants(deps, venue.name) // into the catalog, as an assistant's search does
  return venue
}

const daysAhead = (n: number) => addDays(todayIn(ZONE, Date.now()), n)

/** An auto_book request for a late table at these venues on `day`. */
const autoBookAt = (venueIds: number[], day: string) => specFor(day, { venue_ids: venueIds, mode: 'auto_book' })

describe('venues the service cannot book', () => {
  it('are named in preview and create, and on the approval page, with what the request does instead', async () => {
    const { owner, token, deps } = await diner()
    const captcha = await venueWithRule(deps, 'recaptcha')
    const tock = await venueWithRule(deps, 'tock')
    const spec = autoBookAt([captcha.id, tock.id], daysAhead(5))

    const previewed = await api('/requests/preview', { method: 'POST', token, body: spec })
    expect(previewed.status).toBe(200)
    expect(previewed.body.warnings).toEqual([
      {
        code: 'venue_not_bookable',
        venue_id: captcha.id,
        message: `Tablewatch cannot book ${captcha.name} (its booking asks for a captcha). For ${captcha.name} this request alerts you when a table fits, with a link to book it on the platform; it books at your other restaurants as usual.`,
      },
      {
        code: 'venue_not_bookable',
        venue_id: tock.id,
        message: expect.stringMatching(new RegExp(`^Tablewatch cannot book ${tock.name} \\(its tables are Tock's\\)\\. For .* alerts you`)),
      },
    ])
    // An alert_only request alerts everywhere anyway: nothing to warn of.
    const alertOnly = await api('/requests/preview', { method: 'POST', token, body: { ...spec, mode: 'alert_only' } })
    expect(alertOnly.body.warnings).toEqual([])

    const created = await api('/requests', { method: 'POST', token, body: spec, headers: { 'Idempotency-Key': newKey() } })
    expect(created.status).toBe(201)
    expect(created.body.warnings).toEqual(previewed.body.warnings)

    const actionUrl = new URL(String(created.body.action_url))
    const page = await (await owner.get(actionUrl.pathname + actionUrl.search)).text()
    expect(page).toContain('Some restaurants cannot be booked by Tablewatch')
    expect(page).toContain(`Tablewatch cannot book ${captcha.name} (its booking asks for a captcha).`)
    expect(page).toContain('Tablewatch cannot book Larder &amp; Lamp (its tables are Tock&#39;s).')
  })

  it('never try to book their tables: each is alerted with a link to book it on the platform, and no call loops', async () => {
    const { userId, token, deps } = await diner()
    const captcha = await venueWithRule(deps, 'recaptcha')
    const tock = await venueWithRule(deps, 'tock')
    const day = daysAhead(6)
    const body = autoBookAt([captcha.id, tock.id], day)
    const created = await api('/requests', { method: 'POST', token, headers: { 'Idempotency-Key': newKey() }, body })
    const id = String(created.body.id)
    await approveRequest({ env }, { requestId: id, revision: Number(created.body.revision), userId })

    for (const time of ['23:00', '23:15', '23:30']) {
      for (const venue of [captcha, tock]) {
        await control().addSlot({ venueId: venue.id, day, time, seating: 'Dining Room', partyMin: 1, partyMax: 6 })
        await poll(day, 2, venue.id)
      }
      await flushAlerts(id)
    }

    const calls = await control().calls()
    expect(calls.details ?? 0).toBe(0)
    expect(calls.book ?? 0).toBe(0)
    expect(calls.find ?? 0).toBeGreaterThanOrEqual(6)
    const seen = await view(token, id)
    expect(seen.status).toBe('active')
    const trace = seen.trace.map((t) => t.message).join('\n')
    expect(trace).toMatch(
      new RegExp(`Not booked: ${captcha.name}, .*: Tablewatch cannot book at this restaurant \\(its booking asks for a captcha\\)`),
    )
    expect(trace).toMatch(/Not booked: Larder & Lamp, .*: Tablewatch cannot book at this restaurant \(its tables are Tock's\)/)
    const told = (await notificationsOf(userId)).filter((n) => n.kind === 'booking_skipped')
    expect(told.length).toBeGreaterThan(0)
    expect(told.map((n) => n.body).join('\n')).toMatch(/https:\/\/resy\.com\/cities\/[^/\s]+\/venues\/[^?\s]+\?date=/)
  })

  it('a concierge, transfers, another platform, closed until later: each named on the approval page with why', async () => {
    const { owner, token, deps } = await diner()
    const cases = [
      ['gda_concierge', 'it books only through a concierge'],
      ['reservation_transfers', 'its reservations are made as transfers'],
      ['other_platform', 'it books on another platform'],
      ['reopens_later', 'the platform says it is closed until a later date'],
    ] as const
    const venues = await Promise.all(cases.map(([rule]) => venueWithRule(deps, rule)))
    const spec = specFor(daysAhead(5), {
      venue_ids: venues.map((v) => v.id),
      mode: 'auto_book',
      timezone: 'America/Phoenix',
      expires_at: `${daysAhead(5)}T22:00:00-07:00`,
    })
    const created = await api('/requests', { method: 'POST', token, body: spec, headers: { 'Idempotency-Key': newKey() } })
    expect(created.status).toBe(201)
    expect(created.body.warnings).toEqual(
      cases.map(([, why], i) => ({ code: 'venue_not_bookable', venue_id: venues[i]?.id, message: expect.stringContaining(`(${why}).`) })),
    )
    const actionUrl = new URL(String(created.body.action_url))
    const page = await (await owner.get(actionUrl.pathname + actionUrl.search)).text()
    for (const [, why] of cases) expect(page).toContain(`(${why}).`)
  })
})
