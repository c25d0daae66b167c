// One alarm's work for a request: verify a pending booking, expire, or poll and act on what
// was found. Returns when to wake next. An idle poll (nothing new) changes no stored state.
import { instantOf } from '../../lib/zoned-time'
import type { RequestState } from '../state'
import { isOpen } from '../state'
import type { VenueInfo } from './alerts'
import { alertInstead, tryBooking, VERIFY_INTERVAL_MS, verifyAttempt } from './booking'
import { inBurst, intervalFor, nextPollAt, type ReleaseRule, releaseInstants } from './cadence'
import { type WatchContext, withTrace } from './context'
import { slotKey } from './match'
import { statusReasonAfterPoll } from './platform-failures'
import { pollOnce } from './poll'

export interface StepResult {
  nextAt: number | null
  /** Set when the platform was polled: the object keeps it in memory, not in storage. */
  checkedAt: number | null
}

export async function watchStep(ctx: WatchContext): Promise<StepResult> {
  const now = ctx.deps.now
  let state = await ctx.load()
  if (state?.attempt) {
    // A stopped or revoked request still verifies a booking that may have landed.
    await verifyAttempt(ctx)
    state = await ctx.load()
    if (state?.attempt) return { nextAt: now + VERIFY_INTERVAL_MS, checkedAt: null }
  }
  if (!state || !isOpen(state.status)) return { nextAt: null, checkedAt: null }
  if (now >= state.expiresAt) {
    await ctx.update((s) => (isOpen(s.status) && !s.attempt ? expired(s, now) : null))
    return { nextAt: null, checkedAt: null }
  }
  if (state.status !== 'active') return { nextAt: state.expiresAt, checkedAt: null }
  return { ...(await pollAndAct(ctx, state)), checkedAt: now }
}

function expired(s: RequestState, now: number): RequestState {
  const reason = s.status === 'needs_approval' ? 'Expired before it was approved; nothing was watched.' : 'Expired; nothing was booked.'
  return withTrace({ ...s, status: 'expired', statusReason: reason, updatedAt: Math.max(now, s.updatedAt + 1) }, now, reason)
}

/** While the user's platform account is not connected (or needs reconnecting), nothing is polled. */
const IDLE_WITHOUT_CONNECTION_MS = 5 * 60 * 1000

async function pollAndAct(ctx: WatchContext, state: RequestState): Promise<{ nextAt: number }> {
  const { deps, cadence } = ctx
  const now = deps.now
  const { connection, venues: rows } = await ctx.indexFacts(state.userId, state.spec.venue_ids)
  if (connection?.state !== 'ok') {
    // The contract: without a working connection the service cannot check availability.
    const reason = connection
      ? 'Waiting: the reservation platform account needs reconnecting in Settings.'
      : 'Waiting: connect a reservation platform account in Settings to start watching.'
    await ctx.update((s) =>
      s.statusReason === reason || s.status !== 'active' ? null : withTrace({ ...s, statusReason: reason }, now, reason),
    )
    return { nextAt: Math.min(now + IDLE_WITHOUT_CONNECTION_MS, state.expiresAt) }
  }
  if (state.statusReason?.startsWith('Waiting:'))
    await ctx.update((s) => (s.statusReason?.startsWith('Waiting:') ? { ...s, statusReason: null } : null))
  const venues = new Map<number, VenueInfo>(
    rows.map((r) => [r.venueId, { venueId: r.venueId, name: r.name, urlSlug: r.urlSlug, timeZone: r.timeZone }]),
  )
  const rules: ReleaseRule[] = rows.flatMap((r) =>
    r.releaseDaysInAdvance !== null && r.releaseTime !== null
      ? [{ venueId: r.venueId, timeZone: r.timeZone, daysInAdvance: r.releaseDaysInAdvance, time: r.releaseTime }]
      : [],
  )
  const releases = releaseInstants(state.spec, rules)
  const windowEnds = state.spec.dates.map((d) => instantOf(d, state.spec.latest_time, state.spec.timezone))
  const intervalMs = intervalFor(state.spec, windowEnds, cadence, now)
  const burst = inBurst(releases, now)
  const poll = await pollOnce(ctx, state, venues, burst, intervalMs)

  // The trace records what changed since the last poll, so an idle poll writes nothing.
  await ctx.update((s) => {
    const changed = Object.entries(poll.summaries).filter(([key, line]) => s.summaries[key] !== line)
    if (changed.length === 0) return null
    let next: RequestState = { ...s, summaries: { ...s.summaries, ...poll.summaries } }
    for (const [, line] of changed) next = withTrace(next, now, line)
    return next
  })

  // A block or a refused API key shows in status_reason while it lasts.
  await ctx.update((s) => {
    const reason = statusReasonAfterPoll(s.statusReason, poll.problem)
    return reason === s.statusReason || s.status !== 'active' ? null : { ...s, statusReason: reason }
  })

  const autoBook = state.spec.mode === 'auto_book' && state.approvedRevision === state.revision && !state.bookingDisabled
  for (const sighting of poll.matches) {
    const current = await ctx.load()
    if (current?.status !== 'active' || current.alerted.includes(slotKey(sighting.slot))) continue
    const venue = venues.get(sighting.slot.venueId)
    if (!autoBook) {
      await alertInstead(ctx, sighting, venue, undefined)
      continue
    }
    if (await tryBooking(ctx, state, sighting, venue)) break // at most one booking per request
  }

  const after = await ctx.load()
  if (after?.attempt) return { nextAt: now + VERIFY_INTERVAL_MS }
  const nextAt = poll.backoffMs > 0 ? now + Math.max(poll.backoffMs, intervalMs) : nextPollAt(intervalMs, cadence, releases, now)
  return { nextAt: Math.min(nextAt, state.expiresAt) }
}
