// The request and reservation views of the contract, built from the object's state.

import { actionUrl } from '../alerts/notice'
import type { Principal } from '../core/principal'
import { hasScope } from '../core/principal'
import { type ReservationRow, reservationsOfRequests } from '../db/reservations'
import { findVenues, type VenueRow } from '../db/venues'
import { type ExecutorFacts, executorFactsOf, executorOf } from '../executors/executor-readiness'
import type { Executor } from '../executors/schema'
import { availabilityObjectName } from '../request-aggregate/events'
import type { RequestState } from '../request-aggregate/state'
import { reservationView } from '../reservations/view'
import type { Deps } from '../runtime/deps'
import type { Cadence } from '../watching/cadence'
import type { RequestView } from './schemas'
import { specView } from './spec-conversion'
import { venueWarningsOf } from './venue-warnings'

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

function toView(
  state: RequestState,
  extra: { baseUrl: string; executor: Executor; reservations: ReservationRow[]; venues: VenueRow[]; lastCheckedAt: number | null },
): RequestView {
  // The catalog's word on each venue now, as preview and create said it (the approval page shows it too).
  const warnings = venueWarningsOf(state.spec, extra.venues)
  return {
    id: state.id,
    status: state.status,
    revision: state.revision,
    ...(state.status === 'needs_approval' ? { action_url: actionUrl(extra.baseUrl, state) } : {}),
    reservations: extra.reservations.map((r) =>
      reservationView(
        r,
        extra.venues.find((v) => v.venueId === r.venueId),
      ),
    ),
    executor: extra.executor,
    ...specView(state.spec),
    created_at: new Date(state.createdAt).toISOString(),
    updated_at: new Date(state.updatedAt).toISOString(),
    last_checked_at: iso(extra.lastCheckedAt),
    status_reason: state.statusReason,
    trace: state.trace.slice(-20).map((t) => ({ at: new Date(t.at).toISOString(), message: t.message })),
    warnings,
  }
}

/** The view as this principal may see it: reservations only with `reservations:read`. */
export async function viewFor(deps: Deps, state: RequestState, principal: Principal | null): Promise<RequestView> {
  const [view] = await viewsFor(deps, [state], principal)
  if (!view) throw new Error('a view for every state')
  return view
}

const noFacts: ExecutorFacts = { connection: undefined, setting: { execution: 'cloud', cloudFallback: false }, device: null }

/**
 * Views of one user's requests (a page of a list) with two index queries in all, whatever the
 * page size: the connection once per user, and the reservations of every request together.
 */
export async function viewsFor(deps: Deps, states: RequestState[], principal: Principal | null): Promise<RequestView[]> {
  const showReservations = principal === null || hasScope(principal, 'reservations:read')
  const userIds = [...new Set(states.map((s) => s.userId))]
  const [connections, reservations] = await Promise.all([
    Promise.all(userIds.map(async (id) => [id, await executorFactsOf(deps, id)] as const)).then((pairs) => new Map(pairs)),
    showReservations
      ? reservationsOfRequests(
          deps.db,
          states.map((s) => s.id),
        )
      : Promise.resolve([]),
  ])
  // A user whose device makes the calls is checked by availability objects of their own.
  const viaOf = (userId: string) => watcherOf(connections.get(userId) ?? noFacts, userId)
  const checks = await lastChecks(deps.env, states, viaOf)
  const autoBookVenues = states.flatMap((s) => (s.spec.mode === 'auto_book' ? s.spec.venue_ids : []))
  const venues = await findVenues(deps.db, [...new Set([...reservations.map((r) => r.venueId), ...autoBookVenues])])
  return states.map((state) =>
    toView(state, {
      baseUrl: deps.baseUrl,
      executor: executorOf(connections.get(state.userId) ?? noFacts, state.spec.mode),
      reservations: reservations.filter((r) => r.requestId === state.id),
      venues,
      lastCheckedAt: checks.get(state.id) ?? state.lastCheckedAt,
    }),
  )
}

/**
 * When the platform was last checked for each watching request's venue-days: the availability
 * objects know (kept without a write per poll); the earliest of them, so every venue-day was
 * checked since. A request not watching shows the last check it heard of.
 */
async function lastChecks(
  env: Cloudflare.Env,
  states: RequestState[],
  viaOf: (userId: string) => string | null,
): Promise<Map<string, number | null>> {
  const watching = states.filter((s) => s.status === 'active' && s.watching.length > 0)
  const objectNames = (s: RequestState) => s.watching.map((key) => availabilityObjectName(key, viaOf(s.userId)))
  const names = [...new Set(watching.flatMap(objectNames))]
  const times = new Map(await Promise.all(names.map(async (name) => [name, await availabilityStub(env, name).lastChecked()] as const)))
  return new Map(
    watching.map((s) => {
      const known = objectNames(s).flatMap((name) => times.get(name) ?? [])
      return [s.id, known.length > 0 ? Math.min(...known) : null]
    }),
  )
}

/**
 * How often the platform is checked for this request now: its slowest venue-day's
 * cadence, the budget's stretch included, and the cadence its plans ask for. Null when it is not
 * watching or no venue-day has checked yet. For the request page.
 */
export async function checkCadence(deps: Deps, state: RequestState): Promise<Cadence | null> {
  if (state.status !== 'active' || state.watching.length === 0) return null
  const facts = await executorFactsOf(deps, state.userId)
  const via = watcherOf(facts, state.userId, state.spec.mode)
  const cadences: Cadence[] = await Promise.all(
    state.watching.map(async (key) => {
      const { everyMs, plannedMs } = await availabilityStub(deps.env, availabilityObjectName(key, via)).cadence()
      return { everyMs, plannedMs }
    }),
  )
  const known = cadences.filter((c) => c.everyMs !== null)
  return known.reduce<Cadence | null>((slowest, c) => ((c.everyMs ?? 0) > (slowest?.everyMs ?? -1) ? c : slowest), null)
}

/** Whose availability objects watch this user's venue-days: their own when their device makes the calls, else the shared ones (null). */
const watcherOf = (facts: ExecutorFacts, userId: string, mode?: RequestState['spec']['mode']) =>
  executorOf(facts, mode).execution === 'user_device' ? userId : null

const availabilityStub = (env: Cloudflare.Env, name: string) => env.AVAILABILITY.get(env.AVAILABILITY.idFromName(name))
