// Tables the evidence says an ordinary account cannot or must not book, end to end against the
// sandbox platform (docs/platform.md, "Venues and search", "Availability", "Money terms"): a paid
// add-on is alerted with the reason, never booked, even at a $0 fee limit; a cardholder-only table
// is never prepared (no booking details) nor booked nor alerted; a venue the platform marks as
// booked by a concierge is named in preview and restaurant search and never tried; entries sharing
// one config token are one table, alerted once and booked once.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { approveRequest } from '../../src/request-use-cases/approve'
import { findRestaurants } from '../../src/venues/restaurants'
import { api, newKey } from '../helpers/api'
import { control, createApproved, createRequest, flushAlerts, ledgerOf, notificationsOf, poll, runAlarm, setUp, view } from './world'

const PHOENIX = 'America/Phoenix'

async function venueNamed(name: string) {
  const venue = (await control().venues()).find((v) => v.name === name)
  if (!venue) throw new Error(`no ${name} in the seed`)
  return venue
}

/** A spec for late tables (23:00–23:45, past the generated ones) at one Phoenix venue. */
const phoenixSpec = (venueId: number, day: string, over: Record<string, unknown> = {}) => ({
  venue_ids: [venueId],
  dates: [day],
  earliest_time: '23:00',
  latest_time: '23:45',
  party_size: 2,
  timezone: PHOENIX,
  expires_at: `${day}T22:00:00-07:00`,
  ...over,
})

async function catalogued(deps: Awaited<ReturnType<typeof setUp>>['deps'], name: string) {
  await findRestaurants(deps, name)
  return venueNamed(name)
}

describe('tables an ordinary account cannot or must not book', () => {
  it('a paid add-on is alerted with the reason and never booked, even at a $0 fee limit', async () => {
    const { deps, token, userId, day, platformEmail } = await setUp()
    const venue = await catalogued(deps, 'Ocotillo Table')
    await control().addSlot({ venueId: venue.id, day, time: '23:15', seating: 'Patio', policy: { kind: 'free', addOnPerPerson: 45 } })
    const created = await createApproved(token, userId, phoenixSpec(venue.id, day, { max_cancellation_fee_per_person: 0 }))
    await poll(day, 2, venue.id)
    await flushAlerts(created.id)
    expect(await ledgerOf(platformEmail)).toEqual([])
    const seen = await view(token, created.id)
    expect(seen.status).toBe('active')
    expect(seen.trace.map((t) => t.message).join('\n')).toMatch(/paid add-on/)
    const told = (await notificationsOf(userId)).map((n) => n.body).join('\n')
    expect(told).toMatch(/paid add-on/)
  })

  it('a cardholder-only table is never prepared, booked or alerted', async () => {
    const { deps, token, userId, day, platformEmail } = await setUp()
    const venue = await catalogued(deps, 'Mesa Members Room')
    await control().addSlot({
      venueId: venue.id,
      day,
      time: '23:15',
      seating: 'Members Lounge',
      policy: { kind: 'free', access: 'exclusive' },
    })
    await control().addSlot({
      venueId: venue.id,
      day,
      time: '23:30',
      seating: 'Bar',
      policy: { kind: 'free', access: 'global_dining_access' },
    })
    const before = await control().calls()
    const created = await createApproved(token, userId, phoenixSpec(venue.id, day))
    const watching = await createRequest(token, phoenixSpec(venue.id, day, { title: 'just tell me' }))
    await poll(day, 2, venue.id)
    await flushAlerts(created.id)
    await flushAlerts(watching.id)
    const calls = await control().calls()
    expect((calls.details ?? 0) - (before.details ?? 0)).toBe(0)
    expect((calls.book ?? 0) - (before.book ?? 0)).toBe(0)
    expect(await ledgerOf(platformEmail)).toEqual([])
    expect((await notificationsOf(userId)).filter((n) => /23:15|23:30|11:15|11:30/.test(n.body))).toEqual([])
  })

  it('a venue booked through a concierge is named in preview and restaurant search, and never tried', async () => {
    const { deps, token, userId, day, platformEmail } = await setUp()
    const venue = await catalogued(deps, 'Camelback Concierge')
    const searched = await api('/restaurants?q=Camelback', { token })
    expect(searched.body.restaurants).toMatchObject([
      { venue_id: venue.id, cannot_book: `Tablewatch cannot book ${venue.name}: it books only through a concierge.` },
    ])
    const spec = phoenixSpec(venue.id, day, { mode: 'auto_book' })
    const previewed = await api('/requests/preview', { method: 'POST', token, body: spec })
    expect(previewed.body.warnings).toEqual([
      { code: 'venue_not_bookable', venue_id: venue.id, message: expect.stringMatching(/it books only through a concierge/) },
    ])
    const created = await api('/requests', { method: 'POST', token, body: spec, headers: { 'Idempotency-Key': newKey() } })
    expect(created.body.warnings).toEqual(previewed.body.warnings)
    const approved = { id: String(created.body.id) }
    await approveRequest({ env }, { requestId: approved.id, revision: Number(created.body.revision), userId })
    await control().addSlot({ venueId: venue.id, day, time: '23:15', seating: 'Dining Room' })
    const before = await control().calls()
    await poll(day, 2, venue.id)
    await flushAlerts(approved.id)
    const calls = await control().calls()
    expect((calls.details ?? 0) - (before.details ?? 0)).toBe(0)
    expect(await ledgerOf(platformEmail)).toEqual([])
    expect((await view(token, approved.id)).trace.map((t) => t.message).join('\n')).toMatch(/it books only through a concierge/)
  })

  it('entries sharing one config token are one table: alerted once, booked once', async () => {
    const { deps, token, userId, day, platformEmail } = await setUp()
    const venue = await catalogued(deps, 'Ocotillo Table')
    await control().addSlot({ venueId: venue.id, day, time: '23:15', seating: 'Dining Room' })
    const watching = await createRequest(token, phoenixSpec(venue.id, day, { title: 'tell me' }))
    await poll(day, 2, venue.id)
    await flushAlerts(watching.id)
    const alerts = (await notificationsOf(userId)).filter((n) => n.kind !== 'booking_skipped')
    expect(alerts.length).toBe(1)
    expect(alerts[0]?.body.match(/Dining Room/g)?.length ?? 0).toBe(1)
    expect(alerts[0]?.title ?? '').not.toMatch(/2 tables/)

    const booking = await createApproved(token, userId, phoenixSpec(venue.id, day, { title: 'book it' }))
    await poll(day, 2, venue.id)
    await flushAlerts(booking.id)
    const booked = await ledgerOf(platformEmail)
    expect(booked).toHaveLength(1)
    expect((await control().calls()).book).toBe(1)
  })

  it('a 415 page to book is a format answer: verified on the account, no second book call, and no refusal of the cloud remembered', async () => {
    const { token, userId, day, spec, platformEmail } = await setUp()
    await control().addSlot({ venueId: 60105, day, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    await control().addSlot({ venueId: 60105, day, time: '23:30', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    await control().injectFault({ endpoint: 'book', kind: 'format_415', count: 1 })
    const request = await createApproved(token, userId, spec())
    await poll(day)
    await runAlarm(request.id)
    await poll(day)
    const seen = await view(token, request.id)
    expect(seen.status).toBe('awaiting_verification')
    expect((await control().calls()).book).toBe(1)
    expect(await ledgerOf(platformEmail)).toEqual([])
    const refused = await env.DB.prepare('select call from cloud_refusals where user_id = ?').bind(userId).all<{ call: string }>()
    expect(refused.results).toEqual([])
    const capabilities = await api('/capabilities', { token })
    expect(capabilities.body.executor).toMatchObject({ ready: true })
  })
})
