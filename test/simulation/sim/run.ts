// One seeded simulation run: rounds of (users act, the platform changes, faults are queued,
// sometimes the worker restarts) then (every pending alarm is delivered, sometimes with a crash
// in the middle), until the requested number of requests exist and a few more rounds passed.
// Then faults are used up, every expiry moves into the past, and the checks read the ledger.

import { env } from 'cloudflare:test'
import { DEVICE_USER_AGENT } from '../../../device/src/work'
import { findConnection } from '../../../src/db/connections'
import { open } from '../../../src/lib/secret-box'
import { depsOf } from '../../../src/runtime/deps'
import { type AlarmStats, alarmPhase, lostPolls, newAlarmStats, nextInterval, refresh, restartBetweenSteps } from './alarms'
import { checkSafety, type LateRecords, type SafetyCounts } from './checks'
import { DeviceFleet, type DeviceStats } from './devices'
import { FaultLedger, injectRoundFaults, maybeBlock, maybeExpireTokens, maybeRefuseCloud } from './faults'
import { Inventory } from './inventory'
import { type LapseStats, Lapses } from './lapses'
import { planDinners } from './plan'
import { rngOf } from './random'
import { needsAlarm, type SimRequest } from './requests'
import { create, expireNow, mutate, newStepStats, type StepStats } from './steps'
import { setUpWorld, type World } from './world'

export interface SimOptions {
  seed: string
  requests: number
  /** Faults that make the platform client give up (8 s each): for the long run. */
  clientTimeouts: boolean
  /** Some users book from misbehaving paired devices (sim/devices.ts). */
  devices?: boolean
}

export interface SimReport {
  counts: SafetyCounts
  notes: string[]
  /** Slots the money rules turned from a booking into an alert (checks.ts MONEY_RULES). */
  moneyAlerts: number
  /** Unclear "gone" booking answers the account disproved, after which watching resumed. */
  disproved: number
  /** Verification windows that closed while the account could not be read, and those bookings found later (checks.ts). */
  late: LateRecords
  requests: SimRequest[]
  bookings: number
  statuses: Record<string, number>
  steps: StepStats
  alarms: AlarmStats
  faults: Map<string, number>
  inventory: Inventory['counts']
  devices: DeviceStats | null
  /**
   * Token refreshes the service made (tokens live TOKEN_SECONDS); users it asked to reconnect
   * while the refresh token it stored still worked (must be 0); and users asked to reconnect
   * because the answer of a refresh was lost (a restart killed the call after the platform spent
   * the token): nothing the service stored works any more, so reconnecting is right.
   */
  sessions: { refreshes: number; reconnectsAsked: number; afterLostRefresh: number }
  /** Users whose code sign-in had no refresh token, so their sessions lapsed (lapses.ts). */
  lapses: LapseStats
  access: { codeOnly: number; refusedFromCloud: number; executionChangedByService: number }
}

const SETTLE_ROUNDS = 5

export async function simulate(options: SimOptions): Promise<SimReport> {
  const rng = rngOf(options.seed)
  const run = `${options.seed.replace(/[^a-z0-9]/gi, '').slice(0, 10)}${Date.now().toString(36)}`
  const fleet = options.devices ? new DeviceFleet(rngOf(`${options.seed}:devices`)) : null
  const userCount = Math.ceil(options.requests / 5)
  // Users who book from a device (every other one with devices) keep their own sign-in: never lapsing.
  const lapses = new Lapses(rngOf(`${options.seed}:lapses`), userCount, (i) => !fleet || i % 2 === 1)
  const world = await setUpWorld(rng, run, userCount, fleet, lapses)
  await lapses.connectAll(world.control)
  const dinners = planDinners(rng, world.users, world.venues, 4)
  const venues = new Map(world.venues.map((v) => [v.id, v]))
  const inventory = new Inventory(world.control, venues)
  const faults = new FaultLedger(world.control)
  const steps = newStepStats()
  const alarms = newAlarmStats()
  const requests: SimRequest[] = []
  const replacements: SimRequest[] = []
  const perRound = Math.max(12, Math.min(60, Math.ceil(options.requests / 10)))

  for (let _round = 0, settled = 0; settled < SETTLE_ROUNDS; _round++) {
    if (requests.length >= options.requests) settled += 1
    for (const stopped of replacements.splice(0)) {
      const made = await create(rng, stopped.dinner, steps, stopped.specs.get(stopped.revision))
      if (made) {
        requests.push(made)
        steps.replacedAfterStop += 1
      }
    }
    for (let i = 0; i < perRound && requests.length < options.requests; i++) {
      const made = await create(rng, rng.pick(dinners), steps)
      if (made) requests.push(made)
    }
    await mutate(rng, requests, steps, replacements)

    const live = requests.filter(needsAlarm)
    for (const r of rng.some(live, 0, Math.ceil(live.length / 4))) await inventory.dropFor(rng, r)
    // Some rounds change tables while the polls run: a slot found by a poll may be gone, or its
    // fees changed, by the time the request asks for its details or books it.
    const changing = rng.chance(0.3)
      ? (async () => {
          for (const r of rng.some(live, 0, Math.ceil(live.length / 8))) await inventory.vanish(rng, r)
          for (const r of rng.some(live, 0, Math.ceil(live.length / 8))) await inventory.changeFees(rng, r)
        })()
      : Promise.resolve()
    await nextInterval()
    if (settled === 0) await injectRoundFaults(rng, faults, live.length, options.clientTimeouts)
    if (settled === 0) await maybeBlock(rng, world.control, faults.injected)
    if (settled === 0) await maybeExpireTokens(rng, world.control, faults.injected)
    if (settled === 0) await maybeRefuseCloud(rng, world.control, faults.injected)
    if (settled === 0) await lapses.reconnectSome(rng, world.control)
    if (rng.chance(0.15)) await restartBetweenSteps(rng.chance(0.5), alarms)

    await fleet?.reconnect(settled > 0)
    await alarmPhase(requests, alarms, settled === 0 && rng.chance(0.3) ? rng.int(5, 150) : null, changing)
    await refresh(requests, alarms)
  }

  // The end: the platform behaves again, and every request's time runs out.
  await faults.drain()
  for (let i = 0; i < 2; i++) {
    await fleet?.reconnect(true)
    await nextInterval()
    await alarmPhase(requests, alarms, null)
    await refresh(requests, alarms)
  }
  await lostPolls(alarms)
  for (let i = 0; i < 5 && requests.some(needsAlarm); i++) {
    for (const r of requests.filter(needsAlarm)) await expireNow(r.id)
    // After the windows closed (some on accounts that could not be read), the lapsed users come back.
    if (i === 1) await lapses.reconnectForGood(world.control)
    await fleet?.reconnect(true)
    await alarmPhase(requests, alarms, null)
    await refresh(requests, alarms)
  }

  const ledger = await world.control.ledger()
  const zoneOf = (venueId: number) => venues.get(venueId)?.zone ?? 'UTC'
  const ruleOf = (venueId: number) => venues.get(venueId)?.bookingRule ?? null
  const { counts, notes, moneyAlerts, disproved, toldReconnectToBook, late } = await checkSafety(requests, ledger, zoneOf, ruleOf)
  lapses.stats.toldReconnectToBook = toldReconnectToBook
  const access = await accessOf(world.users)
  const statuses: Record<string, number> = {}
  for (const r of requests) statuses[r.status] = (statuses[r.status] ?? 0) + 1
  const emails = new Set(world.users.map((u) => u.email))
  if (fleet) fleet.stats.bookings = ledger.filter((b) => emails.has(b.email) && b.client === DEVICE_USER_AGENT).length
  const refreshes = (await world.control.calls()).refresh ?? 0
  const reconnects = await reconnectAlertsOf(world.users.map((u) => u.userId))
  return {
    counts,
    notes,
    moneyAlerts,
    disproved,
    late,
    requests,
    bookings: ledger.filter((b) => emails.has(b.email)).length,
    statuses,
    steps,
    alarms,
    faults: faults.injected,
    inventory: inventory.counts,
    devices: fleet?.stats ?? null,
    sessions: { refreshes, ...reconnects },
    lapses: lapses.stats,
    access,
  }
}

/**
 * What the cloud refusals and code sign-ins left: users connected by code, users the platform
 * refused from the cloud (remembered by the service), and users whose choice of where booking
 * happens the service changed by itself (must be 0: that is the user's choice alone).
 */
async function accessOf(users: World['users']): Promise<SimReport['access']> {
  const ids = users.map((u) => u.userId)
  const refused = await env.DB.prepare('select distinct user_id from cloud_refusals').all<{ user_id: string }>()
  const executions = await env.DB.prepare('select id, execution from users').all<{ id: string; execution: string }>()
  const chosen = new Map(users.map((u) => [u.userId, u.execution]))
  return {
    codeOnly: users.filter((u) => u.codeOnly).length,
    refusedFromCloud: refused.results.filter((r) => ids.includes(r.user_id)).length,
    executionChangedByService: executions.results.filter((r) => chosen.has(r.id) && chosen.get(r.id) !== r.execution).length,
  }
}

/**
 * Users asked to reconnect, split by whether the refresh token the service kept still works (then
 * the request was wrong: refresh tokens outlive the run and nothing revokes them) or was spent by
 * a refresh whose answer never came back (a killed call): then there is nothing to renew with.
 */
async function reconnectAlertsOf(userIds: string[]): Promise<{ reconnectsAsked: number; afterLostRefresh: number }> {
  const { results } = await env.DB.prepare("select user_id from notifications where kind = 'reconnect_needed'").all<{ user_id: string }>()
  const asked = results.map((r) => r.user_id).filter((id) => userIds.includes(id))
  const deps = depsOf(env)
  let afterLostRefresh = 0
  let withoutRefresh = 0
  for (const userId of asked) {
    const row = await findConnection(deps.db, userId)
    const sealed = row?.refreshCiphertext && row.refreshIv ? { ciphertext: row.refreshCiphertext, iv: row.refreshIv } : null
    // Without a refresh token (a lapsing user's code sign-in) the session ends: asking is right.
    if (!sealed) {
      withoutRefresh += 1
      continue
    }
    const refreshToken = await open(env.PLATFORM_TOKEN_KEY, sealed, `${userId}:refresh`)
    if ((await deps.platform.refresh({ refreshToken, cdnCookies: {} })).kind === 'reauth') afterLostRefresh += 1
  }
  return { reconnectsAsked: asked.length - afterLostRefresh - withoutRefresh, afterLostRefresh }
}
