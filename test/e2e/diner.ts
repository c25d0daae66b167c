// A diner's set-up for the page tests: signed in, the sandbox platform connected,
// a token for an assistant, and requests the assistant creates by REST.
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import type { AddSlotInput } from '../../sandbox/control-client'
import { callApi, dateIn, type Json, waitForRequest } from './api'

export interface Venue {
  venue_id: number
  name?: string
  time_zone: string
}

/**
 * The table the page tests drop into a lunch window at a dinner-only restaurant (so nothing else
 * matches): a booth for 2–4 at 12:30 on `day`, free unless a policy is given.
 */
export function lunchTable(venue: Pick<Venue, 'venue_id'>, day: string, policy: AddSlotInput['policy'] = { kind: 'free' }) {
  return { venueId: venue.venue_id, day, time: '12:30', seating: 'Booth', partyMin: 2, partyMax: 4, policy } satisfies AddSlotInput
}

export async function connectPlatform(page: Page, baseUrl: string, email: string): Promise<void> {
  await page.goto(`${baseUrl}/settings`)
  await page.getByLabel('Platform email').fill(email)
  await page.getByLabel('Platform password').fill('sandbox-password-1')
  await page.getByLabel(/I understand that the platform may deactivate my account/).check()
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
  await page.waitForURL(/done=connected/)
}

export async function createToken(page: Page, baseUrl: string, name: string): Promise<string> {
  await page.goto(`${baseUrl}/assistants`)
  await page.getByLabel('Name').fill(name)
  await page.getByRole('button', { name: 'Create token' }).click()
  return (await page.locator('#new-token-value').innerText()).trim()
}

/** A sandbox restaurant found as an assistant finds it. */
export async function findVenue(baseUrl: string, token: string, query: string): Promise<Venue> {
  const search = await callApi(baseUrl, token, `/restaurants?q=${encodeURIComponent(query)}`)
  expect(search.status).toBe(200)
  return (search.body.restaurants as Venue[])[0] as Venue
}

/** A dinner spec at the venue on `days` days from today (venue-local), 17–22 h, for two. */
export function dinnerAt(venue: Venue, mode: 'auto_book' | 'alert_only', days: number[], extra: Json = {}): Json {
  return {
    title: 'Dinner out',
    venue_ids: [venue.venue_id],
    dates: days.map((d) => dateIn(venue.time_zone, d)),
    earliest_time: '17:00',
    latest_time: '22:00',
    timezone: venue.time_zone,
    party_size: 2,
    mode,
    max_cancellation_fee_per_person: 25,
    fee_review_hours: 3,
    expires_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    ...extra,
  }
}

export async function createRequest(baseUrl: string, token: string, spec: Json): Promise<Json> {
  const created = await callApi(baseUrl, token, '/requests', { method: 'POST', body: spec, idempotencyKey: `e2e-${crypto.randomUUID()}` })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  return created.body
}

/** How many table alerts a request has sent, from what it did (its trace, as the API shows it). */
export async function alertsOf(baseUrl: string, token: string, id: string): Promise<number> {
  const res = await callApi(baseUrl, token, `/requests/${id}`)
  return (res.body.trace as { message: string }[]).filter((t) => t.message.startsWith('Alerted')).length
}

/** Waits until `done` holds, asking every `everyMs`; fails naming `what` after `ms`. */
export async function until(what: string, ms: number, done: () => Promise<boolean>, everyMs = 500): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`)
    await new Promise((ok) => setTimeout(ok, everyMs))
  }
}

/**
 * Asks `get` every half second until `ok` holds and returns that value; fails naming `what`, the
 * last value and `context()` (a process's recent output) after `timeoutMs`.
 */
export async function valueWhen<T>(
  what: string,
  get: () => Promise<T>,
  ok: (value: T) => boolean,
  options: { timeoutMs?: number; context?: () => string } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000)
  for (;;) {
    const value = await get()
    if (ok(value)) return value
    if (Date.now() > deadline) throw new Error(`${what} not in time; last: ${JSON.stringify(value)}\n${options.context?.() ?? ''}`)
    await new Promise((done) => setTimeout(done, 500))
  }
}

/** Presses the request page's "Open a matching table now" (local development); returns when. */
export async function pressDemo(page: Page, baseUrl: string, id: string): Promise<number> {
  await page.goto(`${baseUrl}/requests/${id}`)
  await page.getByRole('button', { name: 'Open a matching table now' }).click()
  await page.waitForURL(/done=demo_table/)
  return Date.now()
}

/**
 * An approved auto_book for lunch (12:00–14:00, two) at Marrow & Smoke, dinner-only, `days` from
 * now: created by REST, approved on its page, and polled once since, so a table dropped now is news.
 */
export async function approvedLunch(page: Page, baseUrl: string, token: string, days: number, title: string) {
  const venue = await findVenue(baseUrl, token, 'Marrow')
  const date = dateIn(venue.time_zone, days)
  const spec = {
    title,
    venue_ids: [venue.venue_id],
    dates: [date],
    earliest_time: '12:00',
    latest_time: '14:00',
    timezone: venue.time_zone,
    party_size: 2,
    mode: 'auto_book',
    max_cancellation_fee_per_person: 25,
    fee_review_hours: 3,
    expires_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
  }
  const created = await createRequest(baseUrl, token, spec)
  const id = String(created.id)
  await page.goto(String(created.action_url))
  const approvedAt = Date.now()
  await page.getByRole('button', { name: 'Approve' }).click()
  await page.waitForURL(`${baseUrl}/requests/${id}?done=approved`)
  const polled = (v: Json) => typeof v.last_checked_at === 'string' && Date.parse(v.last_checked_at) >= approvedAt
  await waitForRequest(baseUrl, token, id, polled, 60_000)
  return { id, venue, date }
}
