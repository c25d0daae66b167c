// What the watcher does when the platform blocks its checks, refuses the service's API key, or
// answers a booking with 412 (shared/reference/resy-api.md, "Corrections and additions").

import { env, runInDurableObject, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { dayWhen } from '../../src/alerts/alert-time'
import { connectionStatus } from '../../src/executors/connection'
import { BLOCKED_BACKOFF_MS, BLOCKED_REASON, OPERATOR_FAULT_REASON } from '../../src/watching/platform-failures'
import {
  availabilityOf,
  control,
  createApproved,
  createRequest,
  ledgerOf,
  notificationsOf,
  poll,
  runAlarm,
  setUp,
  VENUE,
  view,
} from './world'

// The venue-day's availability object asks the platform and owns the back-off.
const pollAlarmOf = (day: string) => runInDurableObject(availabilityOf(day), (_instance, state) => state.storage.getAlarm())

async function health() {
  // The figures are the operator's: /health shows them only with the operator's token.
  const res = await SELF.fetch('http://localhost/health', { headers: { Authorization: `Bearer ${env.OPERATOR_TOKEN}` } })
  return res.json<{ ok: boolean; platform: Record<'blocked' | 'operator_fault', { count: number; last: string | null }> }>()
}

describe('a blocked check', () => {
  it('is its own outcome: a long back-off, the reason in status_reason and the trace, a figure on /health; cleared once checks work', async () => {
    const { token, day, spec } = await setUp()
    const before = (await health()).platform.blocked.count
    await control().block({ forMs: 600_000, style: 'cloudfront' })
    const request = await createRequest(token, spec({ mode: 'alert_only' }))

    const started = Date.now()
    await poll(day)

    let seen = await view(token, request.id)
    expect(seen.status).toBe('active')
    expect(seen.status_reason).toBe(BLOCKED_REASON)
    expect(seen.trace.map((t) => t.message)).toContain(
      `Could not check Pomelo Garden on ${dayWhen(day)}: the platform is blocking checks (a CloudFront error (X-Cache)).`,
    )
    expect(await pollAlarmOf(day)).toBeGreaterThanOrEqual(started + BLOCKED_BACKOFF_MS)
    const figures = (await health()).platform
    expect(figures.blocked.count).toBe(before + 1)
    expect(figures.blocked.last).toBe('/4/find cloudfront')

    await control().block({ forMs: 0 })
    await poll(day)
    seen = await view(token, request.id)
    expect(seen.status_reason).toBeNull()
    expect(seen.trace.at(-1)?.message).toBe(`Checks of Pomelo Garden on ${dayWhen(day)} work again.`)
  })
})

describe('a check that fails now and then', () => {
  // One failed poll: the client tries a read three times before it gives up.
  const failOnePoll = () => control().injectFault({ endpoint: 'find', kind: '503', count: 3 })
  const checkNotices = async (token: string, id: string) =>
    (await view(token, id)).trace.map((t) => t.message).filter((m) => m.startsWith('Could not check') || m.startsWith('Checks of'))

  it('is not told to the requests until it persists, and then once, and once again when it passes', async () => {
    const { token, day, spec } = await setUp()
    const request = await createRequest(token, spec({ mode: 'alert_only' }))
    await poll(day)
    const quiet = await view(token, request.id)

    // Failing, working, failing, failing: no request hears of it (none is woken).
    for (const fails of [true, false, true, true]) {
      if (fails) await failOnePoll()
      await poll(day)
    }
    const seen = await view(token, request.id)
    expect(await checkNotices(token, request.id)).toEqual([])
    expect(seen.status_reason).toBeNull()
    expect(seen.trace).toEqual(quiet.trace)

    // The third failure in a row is told; the next good check says it passed.
    await failOnePoll()
    await poll(day)
    await poll(day)
    expect(await checkNotices(token, request.id)).toEqual([
      `Could not check Pomelo Garden on ${dayWhen(day)}: the platform did not answer.`,
      `Checks of Pomelo Garden on ${dayWhen(day)} work again.`,
    ])
  })
})

describe('a refused API key on find', () => {
  it('is an operator fault: status_reason says so, /health counts it, and the user is never asked to reconnect', async () => {
    const { token, userId, deps, day, spec } = await setUp()
    const before = (await health()).platform.operator_fault.count
    await control().injectFault({ endpoint: 'find', kind: '419', count: 3 })
    const request = await createRequest(token, spec({ mode: 'alert_only' }))

    await poll(day)

    const seen = await view(token, request.id)
    expect(seen.status_reason).toBe(OPERATOR_FAULT_REASON)
    expect(seen.trace.map((t) => t.message)).toContain(
      `Could not check Pomelo Garden on ${dayWhen(day)}: the platform refused the service's access (the operators are told).`,
    )
    expect((await health()).platform.operator_fault).toMatchObject({ count: before + 1, last: '/4/find HTTP 419' })
    expect(await connectionStatus(deps, userId)).toMatchObject({ connected: true, needsReconnect: false })
    expect((await notificationsOf(userId)).map((n) => n.kind)).not.toContain('reconnect_needed')
  })
})

describe('a 412 from /3/book', () => {
  it('is verified against the account: a booking that shows only later is recorded once, and nothing else is booked', async () => {
    const { token, userId, day, spec, platformEmail } = await setUp()
    await control().addSlot({ venueId: VENUE, day, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    await control().addSlot({ venueId: VENUE, day, time: '23:30', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    // The booking lands but is answered with the 412 a retry gets; the account list lags a moment.
    await control().injectFault({ endpoint: 'book', kind: 'book_held' })
    await control().injectFault({ endpoint: 'reservations', kind: 'pass' }) // the listing before booking
    await control().injectFault({ endpoint: 'reservations', kind: 'stale' })
    const request = await createApproved(token, userId, spec())

    await poll(day)
    expect((await view(token, request.id)).status).toBe('awaiting_verification')
    await runAlarm(request.id)
    await runAlarm(request.id)

    const seen = await view(token, request.id)
    expect(seen.status).toBe('confirmed')
    expect(seen.reservations).toEqual([expect.objectContaining({ verified: true, time: '23:15' })])
    expect(await ledgerOf(platformEmail)).toHaveLength(1)
  })
})
