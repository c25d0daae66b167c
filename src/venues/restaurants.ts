// Restaurant search: the service's catalog merged with the platform's venue search. A venue
// found only on the platform is added to the catalog (with its time zone and release rule,
// from venue details) so it can be watched. Search never checks live availability.
import { findVenues, searchCatalog, updateBookingBlockers, upsertVenues, type VenueRow } from '../db/venues'
import type { VenueDetails } from '../platform/api'
import type { Deps } from '../runtime/deps'
import { REAL_CLOCK, type ReleaseClock } from '../watching/release-clock'
import type { LearnedRule } from '../watching/release-inference'
import { BLOCKER_WORDS } from './blocker-words'
import { clockOf, learnedRules, releaseRuleView } from './release-rule'
import type { Restaurant } from './schema'

const SEARCH_LIMIT = 8

/** A catalog row as a restaurant, with the release rule its venue's horizon object learned (if any). */
function toRestaurant(row: VenueRow, learned: LearnedRule | null = null, clock: ReleaseClock = REAL_CLOCK): Restaurant {
  return {
    venue_id: row.venueId,
    name: row.name,
    city: row.city,
    neighborhood: row.neighborhood,
    time_zone: row.timeZone,
    release_rule: releaseRuleView(row, learned, clock),
    cannot_book: row.bookingBlocker ? `Tablewatch cannot book ${row.name}: ${BLOCKER_WORDS[row.bookingBlocker]}.` : null,
  }
}

/** Catalog rows as restaurants, each with what its venue's horizon object learned. */
export async function restaurantsOf(deps: Deps, rows: VenueRow[]): Promise<Restaurant[]> {
  const learned = await learnedRules(
    deps,
    rows.map((r) => r.venueId),
  )
  return rows.map((r) => toRestaurant(r, learned.get(r.venueId) ?? null, clockOf(deps)))
}

function rowOf(details: VenueDetails, now: number): VenueRow {
  return {
    venueId: details.venueId,
    name: details.name,
    city: details.city,
    neighborhood: details.neighborhood,
    timeZone: details.timeZone,
    urlSlug: details.urlSlug,
    citySlug: details.citySlug,
    address: details.address,
    releaseDaysInAdvance: details.release?.daysInAdvance ?? null,
    releaseTime: details.release?.time ?? null,
    bookingBlocker: details.bookingBlocker,
    addedAt: now,
  }
}

/** Venues the platform knows and the catalog does not yet, added with their details. */
async function addFromPlatform(deps: Deps, query: string): Promise<VenueRow[]> {
  const hits = await deps.platform.searchVenues(query)
  if (hits.kind !== 'ok') return [] // the catalog still answers when the platform does not
  const ids = hits.value.slice(0, SEARCH_LIMIT).map((h) => h.venueId)
  const known = new Set((await findVenues(deps.db, ids)).map((v) => v.venueId))
  // What the hits say of booking there now (a captcha, Tock's tables), kept for the venues known already.
  await updateBookingBlockers(
    deps.db,
    hits.value.filter((h) => known.has(h.venueId)).map((h) => ({ venueId: h.venueId, bookingBlocker: h.bookingBlocker })),
  )
  const details = await Promise.all(ids.filter((id) => !known.has(id)).map((id) => deps.platform.venueDetails(id)))
  const added = details.flatMap((d) => (d.kind === 'ok' ? [rowOf(d.value, deps.now)] : []))
  await upsertVenues(deps.db, added)
  return findVenues(deps.db, ids).then((rows) => ids.flatMap((id) => rows.filter((r) => r.venueId === id)))
}

/** The catalog's restaurants with these venue ids (unknown ids are left out), for the pages. */
export async function restaurantsByIds(deps: Deps, venueIds: number[]): Promise<Restaurant[]> {
  return restaurantsOf(deps, await findVenues(deps.db, venueIds))
}

export async function findRestaurants(deps: Deps, query: string): Promise<Restaurant[]> {
  const text = query.trim()
  const [catalog, platform] = await Promise.all([searchCatalog(deps.db, text, SEARCH_LIMIT), addFromPlatform(deps, text)])
  const merged = new Map<number, VenueRow>()
  for (const row of [...catalog, ...platform]) if (!merged.has(row.venueId)) merged.set(row.venueId, row)
  return restaurantsOf(deps, [...merged.values()].slice(0, SEARCH_LIMIT))
}
