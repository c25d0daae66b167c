// One look at the platform for an active request: every requested (venue, date) whose
// window is still ahead, through the coalesced availability objects.

import { instantOf } from '../../lib/zoned-time'
import type { Slot } from '../../platform/api'
import type { RequestState } from '../state'
import type { VenueInfo } from './alerts'
import { BURST_INTERVAL_MS } from './cadence'
import type { WatchContext } from './context'
import { describeSkip, judgeSlot } from './match'
import { readFailure } from './platform-failures'

export interface Sighting {
  slot: Slot
  startsAt: number
}

export interface PollResult {
  matches: Sighting[]
  /** One line per venue-date for the decision trace, keyed `venueId|date`. */
  summaries: Record<string, string>
  /** The longest wait the platform asked for (429), or a backoff after failures; 0 when fine. */
  backoffMs: number
  /** A block or a refused API key, in words for status_reason; null when none. */
  problem: string | null
}

export async function pollOnce(
  ctx: WatchContext,
  state: RequestState,
  venues: Map<number, VenueInfo>,
  burst: boolean,
  intervalMs: number,
): Promise<PollResult> {
  const { spec } = state
  const now = ctx.deps.now
  const targets = spec.venue_ids.flatMap((venueId) =>
    spec.dates.filter((day) => instantOf(day, spec.latest_time, spec.timezone) > now).map((day) => ({ venueId, day })),
  )
  // Coalesced answers may be this old: one platform call per interval serves every request.
  const maxAgeMs = burst ? BURST_INTERVAL_MS - 500 : Math.max(0, intervalMs * 0.9)
  const answers = await Promise.all(
    targets.map((t) => ctx.availability({ venueId: t.venueId, day: t.day, partySize: spec.party_size }, maxAgeMs)),
  )

  const result: PollResult = { matches: [], summaries: {}, backoffMs: 0, problem: null }
  answers.forEach((answer, i) => {
    const target = targets[i]
    if (!target) return
    const name = venues.get(target.venueId)?.name ?? `venue ${target.venueId}`
    const key = `${target.venueId}|${target.day}`
    if (answer.kind !== 'ok') {
      const failure = readFailure(answer)
      result.backoffMs = Math.max(result.backoffMs, failure.backoffMs)
      result.problem ??= failure.statusReason
      result.summaries[key] = `Could not check ${name} on ${target.day}: ${failure.says}.`
      return
    }
    const inWindow = answer.value.filter((s) => s.time >= spec.earliest_time && s.time <= spec.latest_time)
    const skipped: string[] = []
    let found = 0
    for (const slot of inWindow) {
      const verdict = judgeSlot(spec, slot)
      if (verdict.matches) {
        found += 1
        result.matches.push({ slot, startsAt: instantOf(slot.day, slot.time, spec.timezone) })
      } else {
        skipped.push(describeSkip(slot, verdict))
      }
    }
    result.summaries[key] =
      `Checked ${name} on ${target.day}: ${answer.value.length} open, ${inWindow.length === 0 ? 'none in the window' : `${found} matching`}` +
      (skipped.length > 0 ? `; ${skipped.slice(0, 4).join('; ')}` : '') +
      '.'
  })
  result.matches.sort((a, b) => a.startsAt - b.startsAt)
  return result
}
