// The request spec's valid examples (to mutate from) and the bad inputs the OpenAPI document
// cannot express: the zod refinements (zones, window order, duplicates) and the named rules
// of the contract's Errors table (unknown venues, mismatched zones, dates and expiry).
import { type Spec, validSpec } from '../../helpers/requests'
import { DAY_MS, dateIn, datesIn, instantIn, isoWithOffset, NEW_YORK } from '../../helpers/time'
import { UNKNOWN_VENUE_ID, VENUES } from '../../helpers/venues'
import { code, type Refusal } from './contract'
import type { Mutant, ObjectExamples } from './mutate'

const NY_IDS = VENUES.ny.map((v) => v.venue_id)

export function specExamples(overrides: Spec = {}): ObjectExamples {
  return {
    valid: validSpec(overrides),
    items: {
      venue_ids: (n) => {
        if (n > NY_IDS.length) throw new Error(`only ${NY_IDS.length} New York venues are seeded`)
        return NY_IDS.slice(0, n)
      },
      // From the third day on: the valid spec expires in two days, before the first window.
      dates: (n) => datesIn(NEW_YORK, n, 3),
    },
  }
}

export function updateExamples(revision: number): ObjectExamples {
  const spec = specExamples({ title: 'updated title' })
  return { valid: { revision, spec: spec.valid }, nested: { spec } }
}

const ZONES = [
  'Mars/Olympus_Mons',
  'EST5EDT',
  'GMT+5',
  'UTC+05:00',
  '+05:00',
  'Z',
  'America/New_York ',
  ' America/New_York',
  'America/New_York\u0000',
  '../../etc/passwd',
  'America/',
  'Etc/GMT+99',
  'local',
  'America/New York',
  'america/new_york',
  'US/Eastern',
  'Europe/Lisbon',
  'Asia/Kolkata',
  'Pacific/Kiritimati',
  'UTC',
  'Etc/GMT+5',
  'America/Chicago',
]

/** Bad time zones: refused by the schema's IANA check, or by the venues' zone (a named code). */
export function zoneCases(): Mutant[] {
  return ZONES.map((timezone) => ({ name: `timezone ${JSON.stringify(timezone)}`, value: validSpec({ timezone }) }))
}

/** Window order: a refinement of the schema, not visible in the document. */
export function windowCases(): Mutant[] {
  return [
    ['21:00', '18:00'],
    ['23:59', '00:00'],
    ['18:01', '18:00'],
    ['20:00', '19:59'],
  ].map(([earliest_time, latest_time]) => ({
    name: `window ${earliest_time}-${latest_time}`,
    value: validSpec({ earliest_time, latest_time }),
  }))
}

export interface NamedCase extends Mutant {
  want: Refusal
}

/** Schema-valid specs that break a named rule of the Errors table. */
export function namedRuleCases(): NamedCase[] {
  const week = dateIn(NEW_YORK, 7)
  const endOfWindow = instantIn(NEW_YORK, week, '21:00')
  const cases: [string, Spec, string][] = [
    ['an unknown venue', { venue_ids: [UNKNOWN_VENUE_ID] }, 'venue_not_found'],
    ['a known and an unknown venue', { venue_ids: [NY_IDS[0], UNKNOWN_VENUE_ID] }, 'venue_not_found'],
    ['the largest safe integer as venue', { venue_ids: [Number.MAX_SAFE_INTEGER] }, 'venue_not_found'],
    ['venues in two zones', { venue_ids: [NY_IDS[0], VENUES.chicago.venue_id] }, 'venue_timezone_mismatch'],
    ['a Chicago venue with a New York zone', { venue_ids: [VENUES.chicago.venue_id] }, 'venue_timezone_mismatch'],
    ['a Los Angeles venue with a UTC zone', { venue_ids: [VENUES.losAngeles.venue_id], timezone: 'UTC' }, 'venue_timezone_mismatch'],
    ['yesterday', { dates: [dateIn(NEW_YORK, -1)] }, 'dates_out_of_range'],
    ['91 days out', { dates: [dateIn(NEW_YORK, 91)] }, 'dates_out_of_range'],
    ['a good date and yesterday', { dates: [week, dateIn(NEW_YORK, -1)] }, 'dates_out_of_range'],
    ['1970-01-01', { dates: ['1970-01-01'] }, 'dates_out_of_range'],
    ['0001-01-01', { dates: ['0001-01-01'] }, 'dates_out_of_range'],
    ['9999-12-31', { dates: ['9999-12-31'], expires_at: isoWithOffset(Date.now() + DAY_MS) }, 'dates_out_of_range'],
    ['an expiry a minute ago', { expires_at: isoWithOffset(Date.now() - 60_000) }, 'invalid_expiry'],
    ['an expiry in 1970', { expires_at: '1970-01-01T00:00:00Z' }, 'invalid_expiry'],
    ['an expiry a minute after the window', { expires_at: isoWithOffset(endOfWindow + 60_000) }, 'invalid_expiry'],
    ['an expiry in year 9999', { expires_at: '9999-12-31T23:59:59+14:00' }, 'invalid_expiry'],
    [
      'an expiry after the window, written with a -12:00 offset',
      {
        expires_at: `${new Date(endOfWindow + DAY_MS)
          .toISOString()
          .replace('Z', '')
          .replace(/\.\d+$/, '')}-12:00`,
      },
      'invalid_expiry',
    ],
  ]
  return cases.map(([name, overrides, errorCode]) => ({ name, value: validSpec(overrides), want: code(errorCode, 422) }))
}
