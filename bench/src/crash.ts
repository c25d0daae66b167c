// Crash and restart of the real process: the service's `wrangler dev` (and its workerd) is
// killed with SIGKILL, then started again on the same --persist-to state. Once while a venue-day
// is between polls (a table appears while the service is down), once while a booking's answer
// is in flight (the platform committed it; the service never heard back). Alarms must resume by
// themselves (the venue-day's poll, the request's verification) and each request must reach its
// outcome exactly once.
import { z } from 'zod'
import { dayIn, lateSpec } from './api'
import { literal } from './d1'
import { sleep } from './processes'
import type { BenchUser, WebUser } from './users'
import type { World } from './world'

export interface CrashResult {
  scenario: string
  outcome: string
  /** From the restart to the first run of the alarm that matters (the venue-day's poll, the request's verification). */
  alarmResumedAfterS: number | null
  /** That poll's fire time against the time it was set for before the kill (polls only). */
  lateByMs: number | null
  /** From the restart to the outcome (alert recorded, booking verified). */
  outcomeAfterS: number | null
  alerts: number
  bookings: number
  bookCalls: number
}

async function until<T>(what: string, deadlineMs: number, probe: () => Promise<T | null | undefined>): Promise<T | null> {
  const end = Date.now() + deadlineMs
  while (Date.now() < end) {
    const got = await probe()
    if (got !== null && got !== undefined) return got
    await sleep(250)
  }
  console.log(`  (crash) gave up waiting for ${what}`)
  return null
}

async function restart(world: World): Promise<number> {
  await world.service.stop('SIGKILL')
  await world.service.start()
  return Date.now()
}

const firstPollAfter = (world: World, name: string, at: number) => world.traces.polls.find((p) => p.id === name && p.at >= at)
const firstAlarmAfter = (world: World, id: string, at: number) =>
  world.traces.calls.find((c) => c.c === 'request' && c.m === 'alarm' && c.id === id && c.at >= at)

export async function crashWhilePolling(world: World, user: BenchUser, intervalMs: number): Promise<CrashResult> {
  const venue = world.openVenues[0]
  if (!venue) throw new Error('no venue')
  const spec = lateSpec(venue.id, venue.zone, dayIn(venue.zone, 12), 1, 'alert_only')
  const { id } = await world.api.createOk(user.token, spec)
  const name = `${venue.id}:${spec.dates[0]}:1`
  await until('the first poll', 30_000, async () => world.traces.polls.find((p) => p.id === name))
  await world.service.stop('SIGKILL')
  const last = world.traces.polls.filter((p) => p.id === name).at(-1)

  await world.control.addSlot({
    venueId: venue.id,
    day: spec.dates[0] ?? '',
    time: '23:00',
    seating: 'Dining Room',
    partyMin: 1,
    partyMax: 1,
  })
  await world.service.start()
  const restarted = Date.now()
  const resumed = await until('the poll after the restart', intervalMs * 2.5, async () => firstPollAfter(world, name, restarted))
  const rows = z.object({ n: z.number() })
  const alerted = await until('the alert', intervalMs * 1.5, async () => {
    const n = world.d1.query(`SELECT count(*) AS n FROM notifications WHERE request_id = ${literal(id)}`, rows)[0]?.n ?? 0
    return n > 0 ? Date.now() : null
  })
  await sleep(intervalMs * 1.2) // one more poll: the alert must not repeat
  const alerts = world.d1.query(`SELECT count(*) AS n FROM notifications WHERE request_id = ${literal(id)}`, rows)[0]?.n ?? 0
  return {
    scenario: 'killed between polls; a table appeared while down',
    outcome: alerts === 1 ? 'alerted once' : `alerted ${alerts} times`,
    alarmResumedAfterS: resumed ? (resumed.at - restarted) / 1000 : null,
    lateByMs: resumed && last?.nextAt ? resumed.firedAt - last.nextAt : null,
    outcomeAfterS: alerted ? (alerted - restarted) / 1000 : null,
    alerts,
    bookings: 0,
    bookCalls: 0,
  }
}

export async function crashWhileBooking(world: World, booker: WebUser, platformEmail: string): Promise<CrashResult> {
  const venue = world.openVenues[1]
  if (!venue) throw new Error('no venue')
  const spec = lateSpec(venue.id, venue.zone, dayIn(venue.zone, 12), 1, 'auto_book')
  const day = spec.dates[0] ?? ''
  await world.control.addSlot({ venueId: venue.id, day, time: '23:00', seating: 'Dining Room', partyMin: 1, partyMax: 1 })
  const booksBefore = (await world.control.calls()).book ?? 0
  // The listing before booking goes through; the booking is committed, then its answer hangs.
  await world.control.injectFault({ endpoint: 'reservations', kind: 'pass' })
  await world.control.injectFault({ endpoint: 'book', kind: 'book_lost', hangMs: 60_000 })
  const { id, revision } = await world.api.createOk(booker.token, spec)
  await booker.approve(id, revision)
  const mine = async () =>
    (await world.control.ledger()).filter((b) => b.email === platformEmail && b.venueId === venue.id && b.day === day)
  await until('the booking to be committed', 60_000, async () => ((await mine()).length > 0 ? true : null))
  const restarted = await restart(world)
  const resumed = await until('the alarm after the restart', 60_000, async () => firstAlarmAfter(world, id, restarted))
  const confirmed = await until('the booking to be verified', 90_000, async () => {
    const got = await world.api.get(booker.token, id)
    return got.body.status === 'confirmed' ? Date.now() : null
  })
  const view = await world.api.get(booker.token, id)
  const bookings = (await mine()).length
  return {
    scenario: 'killed while the booking answer was in flight',
    outcome: `${view.body.status}, ${view.body.reservations?.length ?? 0} verified reservation(s)`,
    alarmResumedAfterS: resumed ? (resumed.at - restarted) / 1000 : null,
    // The attempt was saved with its verification alarm (20 s after it) before the book call.
    lateByMs: null,
    outcomeAfterS: confirmed ? (confirmed - restarted) / 1000 : null,
    alerts: 0,
    bookings,
    bookCalls: ((await world.control.calls()).book ?? 0) - booksBefore,
  }
}
