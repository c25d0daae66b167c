// The release rule a restaurant shows: the one seen on the platform (the venue's horizon object
// learns it as new days open, watching/horizon-object.ts) once it is sure enough, else the one its
// notes state. When the two disagree the learned one is shown and the notes' is kept beside it.
import type { VenueRow } from '../db/venues'
import type { Deps } from '../runtime/deps'
import { horizonObject } from '../watching/horizon-object'
import { hhmmOf, type ReleaseClock, releaseClockFrom, secondOfDayOf } from '../watching/release-clock'
import { disagrees, type LearnedRule, USE_CONFIDENCE } from '../watching/release-inference'
import type { Restaurant } from './schema'

export type ReleaseRuleView = NonNullable<Restaurant['release_rule']>

function statedOf(row: VenueRow) {
  return row.releaseDaysInAdvance !== null && row.releaseTime !== null
    ? { daysInAdvance: row.releaseDaysInAdvance, secondOfDay: secondOfDayOf(row.releaseTime) }
    : null
}

export function releaseRuleView(row: VenueRow, learned: LearnedRule | null, clock: ReleaseClock): ReleaseRuleView | null {
  const stated = statedOf(row)
  const statedView = stated ? { days_in_advance: stated.daysInAdvance, time_of_day: hhmmOf(stated.secondOfDay) } : null
  if (learned && learned.confidence >= USE_CONFIDENCE) {
    return {
      days_in_advance: learned.daysInAdvance,
      time_of_day: hhmmOf(learned.secondOfDay),
      source: 'learned',
      confidence: learned.confidence,
      stated: stated && disagrees(learned, stated, clock) ? statedView : null,
    }
  }
  return statedView ? { ...statedView, source: 'venue_notes', confidence: null, stated: null } : null
}

/** What each venue's horizon object has learned (a venue never watched has learned nothing). */
export async function learnedRules(deps: Deps, venueIds: number[]): Promise<Map<number, LearnedRule | null>> {
  const learned = await Promise.all(
    venueIds.map((id) =>
      horizonObject(deps.env, id)
        .learned()
        .catch(() => null),
    ),
  )
  return new Map(venueIds.map((id, i) => [id, learned[i] ?? null]))
}

export const clockOf = (deps: Deps) => releaseClockFrom(deps.env)
