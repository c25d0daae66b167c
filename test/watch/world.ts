// A user with a connected sandbox account, a token, and helpers to create requests and run
// their alarms. The service's own platform client (env.PLATFORM_BASE_URL) and the sandbox
// control client share one sandbox world: the watch project's own (vitest.watch.config.ts),
// which no other suite touches; setUp resets it to its seeded state for each test.
import { env, evictDurableObject, runDurableObjectAlarm, runInDurableObject, SELF } from 'cloudflare:test'
import { sandboxControl } from '../../sandbox/control-client'
import { createAccessToken } from '../../src/auth/pat'
import { users } from '../../src/db/schema'
import { connectPlatform } from '../../src/executors/connection'
import { addDays, todayIn } from '../../src/lib/zoned-time'
import { approveRequest } from '../../src/request-use-cases/approve'
import { depsOf, requestObject } from '../../src/runtime/deps'
import { findRestaurants } from '../../src/venues/restaurants'

/** Pomelo Garden, New York: no release rule, no fees by default. */
export const VENUE = 60105
export const ZONE = 'America/New_York'
const today = todayIn(ZONE, Date.now())

export const control = () => {
  if (!env.PLATFORM) throw new Error('PLATFORM must be bound to the sandbox')
  return sandboxControl({ fetcher: env.PLATFORM, baseUrl: env.PLATFORM_BASE_URL })
}

let counter = 0

export async function setUp(options: { email?: string; connect?: boolean } = {}) {
  await control().reset()
  const deps = depsOf(env)
  const userId = `usr_watch${++counter}${crypto.randomUUID().slice(0, 8)}`
  const email = options.email ?? `${userId}@example.test`
  await deps.db.insert(users).values({ id: userId, email, createdAt: Date.now() })
  const { token } = await createAccessToken(deps.db, {
    userId,
    name: 'watch test',
    scopes: ['restaurants:read', 'requests:read', 'requests:write', 'reservations:read'],
  })
  await findRestaurants(deps, 'Pomelo') // adds the venue to the catalog from the platform
  if (options.connect !== false) {
    await connectPlatform(deps, userId, { email: `diner-${userId}@example.test`, password: 'secret', acknowledgedRisk: true })
  }
  // Each test watches its own day, so no answer coalesced for an earlier test is reused.
  const day = addDays(today, 2 + (counter % 80))
  return {
    deps,
    userId,
    token,
    day,
    platformEmail: `diner-${userId}@example.test`,
    spec: (overrides: Record<string, unknown> = {}) => specFor(day, overrides),
  }
}

/** A request's spec for a late table at the world's venue on `day` (overrides change any field). */
export function specFor(day: string, overrides: Record<string, unknown> = {}) {
  return {
    venue_ids: [VENUE],
    dates: [day],
    earliest_time: '23:00',
    latest_time: '23:45',
    party_size: 2,
    timezone: ZONE,
    expires_at: `${day}T22:00:00-05:00`,
    ...overrides,
  }
}

/** The sandbox's own ledger: the bookings on one platform account. */
export async function ledgerOf(email: string) {
  return (await control().ledger()).filter((b) => b.email === email)
}

export const availabilityOf = (day: string, partySize = 2, venueId = VENUE) =>
  env.AVAILABILITY.get(env.AVAILABILITY.idFromName(`${venueId}:${day}:${partySize}`))

/** The interval passes: the venue-day's answer in memory is forgotten, so its next alarm asks the platform. */
export async function nextInterval(day: string, partySize = 2, venueId = VENUE): Promise<void> {
  await evictDurableObject(availabilityOf(day, partySize, venueId)).catch(() => undefined) // not running: nothing to forget
}

/** Delivers the availability object's alarm now (again, if it already ran by itself). */
export async function runPoll(day: string, partySize = 2, venueId = VENUE): Promise<void> {
  const stub = availabilityOf(day, partySize, venueId)
  if (await runDurableObjectAlarm(stub)) return
  await runInDurableObject(stub, (_instance, state) => state.storage.setAlarm(Date.now()))
  await runDurableObjectAlarm(stub)
}

/**
 * The venue-day's availability object takes its answer now (subscribing a request that wants a
 * later table than 23:15), so a request subscribing within the interval is told from that answer.
 */
export async function answerTakenNow(token: string, spec: (overrides?: Record<string, unknown>) => Record<string, unknown>, day: string) {
  await createRequest(token, spec({ earliest_time: '23:30', title: 'a later table' }))
  await runPoll(day)
}

/**
 * The venue-day's next scheduled poll: the platform is asked again, and every subscriber with a
 * matching new slot hears of it (and books, if it may) before this returns.
 */
export async function poll(day: string, partySize = 2, venueId = VENUE): Promise<void> {
  await nextInterval(day, partySize, venueId)
  await runPoll(day, partySize, venueId)
}

export async function createRequest(
  token: string,
  body: Record<string, unknown>,
): Promise<{ id: string; status: string; revision: number }> {
  const res = await SELF.fetch('http://localhost/api/v1/requests', {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
    body: JSON.stringify(body),
  })
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`)
  return res.json()
}

export async function createApproved(token: string, userId: string, body: Record<string, unknown>) {
  const created = await createRequest(token, { mode: 'auto_book', ...body })
  await approveRequest({ env }, { requestId: created.id, revision: created.revision, userId })
  return created
}

export async function view(token: string, id: string) {
  const res = await SELF.fetch(`http://localhost/api/v1/requests/${id}`, { headers: { Authorization: `Bearer ${token}` } })
  return res.json<{
    status: string
    reservations: { reservation_id: number; verified: boolean; time: string }[]
    trace: { message: string }[]
    last_checked_at: string | null
    status_reason: string | null
  }>()
}

/**
 * Delivers the request's alarm now, as the runtime would (again, if it already ran by itself):
 * at-least-once delivery means the watcher must take any number of these.
 */
export async function runAlarm(id: string): Promise<void> {
  const stub = requestObject(env, id)
  if (await runDurableObjectAlarm(stub)) return
  await runInDurableObject(stub, (_instance, state) => state.storage.setAlarm(Date.now()))
  await runDurableObjectAlarm(stub)
}

export async function notificationsOf(userId: string) {
  const { results } = await env.DB.prepare('select kind, title, body, link from notifications where user_id = ? order by id')
    .bind(userId)
    .all<{ kind: string; title: string; body: string; link: string | null }>()
  return results
}

export async function outboxOf(userId: string) {
  const { results } = await env.DB.prepare('select subject from outbox where user_id = ?').bind(userId).all<{ subject: string }>()
  return results
}

/** The digest's gather window passes: the waiting tables are due now, and the request's alarm sends them. */
export async function flushAlerts(id: string): Promise<void> {
  await runInDurableObject(requestObject(env, id), async (_instance, state) => {
    const s = await state.storage.get<{ digest: { dueAt: number } | null }>('state')
    if (!s?.digest) return
    await state.storage.put('state', { ...s, digest: { ...s.digest, dueAt: Date.now() - 1 } })
  })
  await runAlarm(id)
}

/** The user's alert gap passes for every table told so far: their alerts move `ms` into the past. */
export async function toldEarlier(id: string, ms: number): Promise<void> {
  await runInDurableObject(requestObject(env, id), async (_instance, state) => {
    const s = await state.storage.get<{ toldAt?: Record<string, number>; digestSentAt: number | null }>('state')
    if (!s) return
    const toldAt = Object.fromEntries(Object.entries(s.toldAt ?? {}).map(([key, at]) => [key, at - ms]))
    await state.storage.put('state', { ...s, toldAt, digestSentAt: s.digestSentAt === null ? null : s.digestSentAt - ms })
  })
}
