// The request rules that need more than the schema: the catalog, the clock, the token.
// Each failure has a named code of the contract's Errors table.
import type { Principal } from '../core/principal'
import type { Window } from '../db/requests'
import { findVenues } from '../db/venues'
import { AppError } from '../errors'
import { addDays, todayIn } from '../lib/zoned-time'
import { type Spec, windowsOf } from '../request-aggregate/spec'
import type { Deps } from '../runtime/deps'
import { restaurantsOf } from '../venues/restaurants'
import type { Restaurant } from '../venues/schema'
import type { RequestSpec } from './schemas'
import { specOf } from './spec-conversion'

const DATE_HORIZON_DAYS = 90

export interface CheckedSpec {
  /** The request's own copy of the spec the caller sent. */
  spec: Spec
  restaurants: Restaurant[]
  windows: Window[]
  expiresAt: number
}

export async function checkSpec(deps: Deps, spec: RequestSpec, principal: Principal): Promise<CheckedSpec> {
  const rows = await findVenues(deps.db, spec.venue_ids)
  const missing = spec.venue_ids.filter((id) => !rows.some((r) => r.venueId === id))
  if (missing.length > 0) {
    throw new AppError(
      'venue_not_found',
      `Unknown venue id${missing.length > 1 ? 's' : ''} ${missing.join(', ')}. Use restaurant search to find venue ids.`,
    )
  }
  const elsewhere = rows.filter((r) => r.timeZone !== spec.timezone)
  if (elsewhere.length > 0) {
    const names = elsewhere.map((r) => `${r.name} (${r.timeZone})`).join(', ')
    throw new AppError(
      'venue_timezone_mismatch',
      `All venues must be in the request's time zone ${spec.timezone}; ${names} ${elsewhere.length > 1 ? 'are' : 'is'} not. Send the venue's time_zone as timezone, or split the request.`,
    )
  }

  const today = todayIn(spec.timezone, deps.now)
  const last = addDays(today, DATE_HORIZON_DAYS)
  const outside = spec.dates.filter((d) => d < today || d > last)
  if (outside.length > 0) {
    throw new AppError(
      'dates_out_of_range',
      `Dates must be from today (${today}) through ${last} in ${spec.timezone}; ${outside.join(', ')} ${outside.length > 1 ? 'are' : 'is'} outside that range.`,
    )
  }

  const windows = windowsOf(spec)
  const expiresAt = Date.parse(spec.expires_at)
  const lastServiceTime = Math.max(...windows.map(([, end]) => end))
  if (expiresAt <= deps.now) {
    throw new AppError('invalid_expiry', 'expires_at must be in the future.')
  }
  if (expiresAt > lastServiceTime) {
    throw new AppError(
      'invalid_expiry',
      `expires_at must be no later than the last requested time (${new Date(lastServiceTime).toISOString()}).`,
    )
  }
  if (expiresAt >= principal.expiresAt) {
    throw new AppError(
      'grant_expires_first',
      `expires_at must be before this token's authorization ends (${new Date(principal.expiresAt).toISOString()}); choose an earlier expiry or reconnect.`,
    )
  }
  // In the order the user gave them.
  const restaurants = await restaurantsOf(
    deps,
    spec.venue_ids.flatMap((id) => rows.filter((r) => r.venueId === id)),
  )
  return { spec: specOf(spec), restaurants, windows, expiresAt }
}
