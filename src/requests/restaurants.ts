// Restaurant search over the catalog; the results carry what a request needs (venue id, time zone).
import { searchCatalog, type VenueRow } from '../db/venues'
import type { Deps } from './deps'
import type { Restaurant } from './schemas'

export const SEARCH_LIMIT = 8

export function toRestaurant(row: VenueRow): Restaurant {
  return {
    venue_id: row.venueId,
    name: row.name,
    city: row.city,
    neighborhood: row.neighborhood,
    time_zone: row.timeZone,
    release_rule:
      row.releaseDaysInAdvance !== null && row.releaseTime !== null
        ? { days_in_advance: row.releaseDaysInAdvance, time_of_day: row.releaseTime }
        : null,
  }
}

export async function findRestaurants(deps: Deps, query: string): Promise<Restaurant[]> {
  const rows = await searchCatalog(deps.db, query.trim(), SEARCH_LIMIT)
  return rows.map(toRestaurant)
}
