// Time, as the simulation drives it: every pending alarm is delivered now (early and repeated
// deliveries are allowed: alarms are at-least-once): the venue-days' polls (which call the
// requests with new matching slots, and so book) and the requests' own alarms (verification,
// expiry, retries). A "restart" aborts every Durable Object of the service, in the middle of a
// phase or between phases; an alarm that was running when its object died is delivered again,
// as the runtime retries a failed alarm.
import {
  abortAllDurableObjects,
  env,
  evictDurableObject,
  listDurableObjectIds,
  runDurableObjectAlarm,
  runInDurableObject,
} from 'cloudflare:test'
import { requestObject } from '../../../src/runtime/deps'
import { mapLimit } from './random'
import { inspect, needsAlarm, type SimRequest } from './requests'

export interface AlarmStats {
  /** Availability polls run (each may call its subscribers). */
  polls: number
  delivered: number
  redelivered: number
  crashedRuns: number
  restarts: number
  /** Alarm runs that failed for a reason other than a restart: the runtime gives up after a few. */
  errors: string[]
  /** Open requests (or ones verifying a booking), and venue-days with subscribers, found without an alarm. */
  lostAlarms: string[]
}

export const newAlarmStats = (): AlarmStats => ({
  polls: 0,
  delivered: 0,
  redelivered: 0,
  crashedRuns: 0,
  restarts: 0,
  errors: [],
  lostAlarms: [],
})

/**
 * An object killed while the runtime itself was running its alarm has no alarm for a moment:
 * the runtime retries the failed alarm after a back-off (2 s, then longer). Only a request that
 * still has none, unchanged, this long after it was first seen without one lost its alarm.
 */
const RUNTIME_RETRY_GRACE_MS = 20_000
const suspects = new Map<string, { since: number; updatedAt: number }>()

async function deliver(r: SimRequest, stats: AlarmStats): Promise<void> {
  try {
    if (await runDurableObjectAlarm(requestObject(env, r.id))) {
      stats.delivered += 1
    } else if (r.crashed) {
      // The runtime retries an alarm whose handler died; the test helper already removed it.
      await runInDurableObject(requestObject(env, r.id), (_instance, state) => state.storage.setAlarm(Date.now()))
      await runDurableObjectAlarm(requestObject(env, r.id))
      stats.redelivered += 1
    }
    r.crashed = false
  } catch (err) {
    r.crashed = true
    stats.crashedRuns += 1
    const message = err instanceof Error ? err.message : String(err)
    if (!/abortAllDurableObjects|evict/i.test(message)) stats.errors.push(`${r.id}: ${message}`)
  }
}

/** Venue-days whose poll the simulation started and a restart killed: the runtime would retry them. */
const killedPolls = new Set<string>()

/** Runs every venue-day's scheduled poll now (early), and again the ones a restart killed. */
async function pollAll(stats: AlarmStats): Promise<void> {
  const ids = await listDurableObjectIds(env.AVAILABILITY)
  await mapLimit(ids, 12, async (id) => {
    const stub = env.AVAILABILITY.get(id)
    const key = id.toString()
    try {
      if (await runDurableObjectAlarm(stub)) {
        stats.polls += 1
      } else if (killedPolls.has(key)) {
        await runInDurableObject(stub, (_instance, state) => state.storage.setAlarm(Date.now()))
        await runDurableObjectAlarm(stub)
        stats.polls += 1
      }
      killedPolls.delete(key)
    } catch (err) {
      killedPolls.add(key)
      stats.crashedRuns += 1
      const message = err instanceof Error ? err.message : String(err)
      if (!/abortAllDurableObjects|evict/i.test(message)) stats.errors.push(`availability ${key}: ${message}`)
    }
  })
}

/**
 * Delivers the alarms of every venue-day and of every request that may have one. With
 * `crashAfterMs`, every object of the service is aborted that long into the phase (a worker
 * restart mid-step). `meanwhile` runs beside the alarms (the platform changing under them).
 */
export async function alarmPhase(
  requests: SimRequest[],
  stats: AlarmStats,
  crashAfterMs: number | null,
  meanwhile: Promise<void> = Promise.resolve(),
): Promise<void> {
  const due = requests.filter((r) => needsAlarm(r) || r.crashed)
  const crash =
    crashAfterMs === null
      ? Promise.resolve()
      : new Promise<void>((done) => setTimeout(done, crashAfterMs)).then(async () => {
          await abortAllDurableObjects()
          stats.restarts += 1
        })
  await Promise.all([pollAll(stats), mapLimit(due, 12, (r) => deliver(r, stats)), crash, meanwhile])
  if (crashAfterMs !== null) {
    // Calls that were already on their way to the platform land a moment later; let them,
    // so the next phase's changes (stops, updates) come strictly after them.
    await new Promise((done) => setTimeout(done, 300))
  }
}

/** Reads every live request's state and alarm; an open one without an alarm is lost. */
export async function refresh(requests: SimRequest[], stats: AlarmStats): Promise<void> {
  await mapLimit(
    requests.filter((r) => needsAlarm(r) || r.crashed),
    16,
    async (r) => {
      const { state, alarm } = await inspect(r.id)
      if (!state) return
      r.status = state.status
      r.attempt = state.attempt !== null || (state.unsettled ?? null) !== null
      if (!needsAlarm(r) || alarm !== null || r.crashed) {
        suspects.delete(r.id)
        return
      }
      const seen = suspects.get(r.id)
      if (!seen || seen.updatedAt !== state.updatedAt) {
        suspects.set(r.id, { since: Date.now(), updatedAt: state.updatedAt })
      } else if (Date.now() - seen.since > RUNTIME_RETRY_GRACE_MS && !stats.lostAlarms.some((l) => l.startsWith(r.id))) {
        const trace = state.trace
          .slice(-3)
          .map((t) => t.message)
          .join(' / ')
        const verifying = state.attempt ? ', verifying a booking' : state.unsettled ? ', looking for a booking' : ''
        stats.lostAlarms.push(`${r.id} (${state.status}${verifying}): ${trace}`)
      }
    },
  )
}

/** Venue-days with subscribers but no alarm (their run died and was not delivered again: the runtime would). */
export async function lostPolls(stats: AlarmStats): Promise<void> {
  const ids = await listDurableObjectIds(env.AVAILABILITY)
  await mapLimit(ids, 16, async (id) => {
    const { subscribers, alarm } = await runInDurableObject(env.AVAILABILITY.get(id), async (_instance, state) => ({
      subscribers: state.storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM subscribers WHERE until > ?', Date.now()).one().n,
      alarm: await state.storage.getAlarm(),
    }))
    if (subscribers > 0 && alarm === null) stats.lostAlarms.push(`availability ${id}: ${subscribers} subscribers, no alarm`)
  })
}

/** A graceful restart between steps: objects are evicted, their storage and alarms kept. */
export async function restartBetweenSteps(hard: boolean, stats: AlarmStats): Promise<void> {
  stats.restarts += 1
  if (hard) {
    await abortAllDurableObjects()
    return
  }
  const ids = await listDurableObjectIds(env.REQUESTS)
  await Promise.all(ids.map((id) => evictDurableObject(env.REQUESTS.get(id)).catch(() => undefined)))
}

/** The next polling interval: every coalesced availability answer is forgotten. */
export async function nextInterval(): Promise<void> {
  const ids = await listDurableObjectIds(env.AVAILABILITY)
  await Promise.all(ids.map((id) => evictDurableObject(env.AVAILABILITY.get(id)).catch(() => undefined)))
}
