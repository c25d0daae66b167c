// A small restaurant catalog in D1. Ids are high so they never collide with seeded data.
import { env } from 'cloudflare:test'

export interface TestVenue {
  venue_id: number
  name: string
  city: string
  neighborhood: string
  time_zone: string
}

const NEW_YORK = 'America/New_York'

export const VENUES = {
  ny: [
    { venue_id: 900001, name: 'Lilac Trattoria', city: 'New York', neighborhood: 'West Village', time_zone: NEW_YORK },
    { venue_id: 900002, name: 'Harbor Oyster Room', city: 'New York', neighborhood: 'Tribeca', time_zone: NEW_YORK },
    { venue_id: 900003, name: 'Quince Bistro', city: 'New York', neighborhood: 'SoHo', time_zone: NEW_YORK },
    { venue_id: 900004, name: 'Ember Grill', city: 'New York', neighborhood: 'Chelsea', time_zone: NEW_YORK },
    { venue_id: 900005, name: 'Saffron Table', city: 'New York', neighborhood: 'Harlem', time_zone: NEW_YORK },
    { venue_id: 900006, name: 'Juniper Kitchen', city: 'Brooklyn', neighborhood: 'Williamsburg', time_zone: NEW_YORK },
    { venue_id: 900007, name: 'Copper Pot', city: 'Brooklyn', neighborhood: 'Park Slope', time_zone: NEW_YORK },
    { venue_id: 900008, name: 'Marigold Noodle Bar', city: 'New York', neighborhood: 'East Village', time_zone: NEW_YORK },
    { venue_id: 900009, name: 'Olive Branch Taverna', city: 'Queens', neighborhood: 'Astoria', time_zone: NEW_YORK },
  ],
  chicago: { venue_id: 900101, name: 'Prairie Smokehouse', city: 'Chicago', neighborhood: 'West Loop', time_zone: 'America/Chicago' },
  losAngeles: {
    venue_id: 900201,
    name: 'Canyon Taqueria',
    city: 'Los Angeles',
    neighborhood: 'Silver Lake',
    time_zone: 'America/Los_Angeles',
  },
} satisfies Record<string, TestVenue | TestVenue[]>

export const ALL_VENUES: TestVenue[] = [...VENUES.ny, VENUES.chicago, VENUES.losAngeles]

/** A venue id that is never in the catalog. */
export const UNKNOWN_VENUE_ID = 999_999_901

/** Idempotent: safe to call from every test of a file (storage is shared within a file). */
export async function seedVenues(): Promise<void> {
  const insert = env.DB.prepare(
    `insert or ignore into venues (venue_id, name, city, neighborhood, time_zone, url_slug, release_days_in_advance, release_time, added_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  await env.DB.batch(
    ALL_VENUES.map((v) =>
      insert.bind(
        v.venue_id,
        v.name,
        v.city,
        v.neighborhood,
        v.time_zone,
        v.name.toLowerCase().replaceAll(' ', '-'),
        30,
        '09:00',
        Date.now(),
      ),
    ),
  )
}
