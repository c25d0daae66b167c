// One realistic example per operation of the REST document: what a client sends and gets back
// for a dinner at a sandbox-like venue. Typed by the schemas, so an example cannot drift from
// the contract without failing the type check (and test/api/openapi.test.ts parses each one).
import type { z } from '@hono/zod-openapi'
import type { Capabilities, PreviewResult, RequestList, RequestSpec, RequestView, UpdateBody } from '../request-use-cases/schemas'
import type { Reservation } from '../reservations/schema'
import { PLATFORM_ACCOUNT_URL } from '../reservations/view'
import type { RestaurantList } from '../venues/schema'

const restaurant = {
  venue_id: 60101,
  name: 'Lilac Trattoria',
  city: 'New York',
  neighborhood: 'West Village',
  time_zone: 'America/New_York',
  release_rule: { days_in_advance: 30, time_of_day: '10:00', source: 'learned' as const, confidence: 0.9, stated: null },
  cannot_book: null,
}

/** Every field given (a valid request body, and the spec as views show it). */
export const SPEC_EXAMPLE: z.output<typeof RequestSpec> = {
  title: 'Anniversary dinner',
  venue_ids: [60101],
  dates: ['2026-12-05', '2026-12-06'],
  earliest_time: '19:00',
  latest_time: '21:00',
  timezone: 'America/New_York',
  party_size: 2,
  seating: 'indoor',
  mode: 'auto_book',
  max_cancellation_fee_per_person: 25,
  fee_review_hours: 24,
  expires_at: '2026-12-06T18:00:00-05:00',
  max_bookings: 1,
}

const executor = { ready: true, execution: 'cloud' as const }

const { expires_at: _expires, ...viewFields } = SPEC_EXAMPLE

export const VIEW_EXAMPLE: z.output<typeof RequestView> = {
  id: 'sr_3kq9x0abc',
  status: 'needs_approval',
  revision: 1,
  action_url: 'https://tablewatch.example/requests/sr_3kq9x0abc/approve?revision=1',
  reservations: [],
  executor,
  ...viewFields,
  expires_at: '2026-12-06T23:00:00.000Z',
  created_at: '2026-11-23T15:04:05.000Z',
  updated_at: '2026-11-23T15:04:05.000Z',
  last_checked_at: null,
  status_reason: null,
  trace: [{ at: '2026-11-23T15:04:05.000Z', message: 'Created; waiting for the user to approve it.' }],
  warnings: [],
}

export const UPDATE_EXAMPLE: z.output<typeof UpdateBody> = { revision: 1, spec: { ...SPEC_EXAMPLE, party_size: 4 } }

export const UPDATED_EXAMPLE: z.output<typeof RequestView> = {
  ...VIEW_EXAMPLE,
  revision: 2,
  party_size: 4,
  action_url: 'https://tablewatch.example/requests/sr_3kq9x0abc/approve?revision=2',
  updated_at: '2026-11-23T15:10:00.000Z',
  trace: [...VIEW_EXAMPLE.trace, { at: '2026-11-23T15:10:00.000Z', message: 'Updated to revision 2; waiting for approval.' }],
}

const { action_url: _approval, ...withoutLink } = VIEW_EXAMPLE

export const STOPPED_EXAMPLE: z.output<typeof RequestView> = {
  ...withoutLink,
  status: 'stopped',
  status_reason: 'Stopped; monitoring ended. Any reservation still stands.',
  updated_at: '2026-11-23T16:00:00.000Z',
  trace: [...VIEW_EXAMPLE.trace, { at: '2026-11-23T16:00:00.000Z', message: 'Stopped; monitoring ended. Any reservation still stands.' }],
}

export const LIST_EXAMPLE: z.output<typeof RequestList> = { requests: [VIEW_EXAMPLE], next_cursor: null }

export const PREVIEW_EXAMPLE: z.output<typeof PreviewResult> = {
  valid: true,
  spec: SPEC_EXAMPLE,
  restaurants: [restaurant],
  timezone: 'America/New_York',
  executor,
  warnings: [],
}

export const RESTAURANTS_EXAMPLE: z.output<typeof RestaurantList> = { restaurants: [restaurant] }

export const CAPABILITIES_EXAMPLE: z.output<typeof Capabilities> = { executor }

export const RESERVATION_EXAMPLE: z.output<typeof Reservation> = {
  reservation_id: 42,
  verified: true,
  request_id: 'sr_3kq9x0abc',
  venue_id: 60101,
  venue_name: 'Juniper & Vine',
  address: '201 Main St, New York, NY',
  time_zone: 'America/New_York',
  date: '2026-12-05',
  time: '19:30',
  starts_at: '2026-12-05T19:30:00-05:00',
  party_size: 2,
  seating: 'indoor',
  cancellation_fee_per_person: 25,
  free_cancellation_until: '2026-12-04T19:30:00.000Z',
  manage_url: PLATFORM_ACCOUNT_URL,
}
