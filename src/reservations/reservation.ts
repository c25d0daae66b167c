import type { Principal } from '../core/principal'
import { reservationOfPrincipal } from '../db/reservations'
import { findVenues } from '../db/venues'
import { AppError } from '../errors'
import type { Deps } from '../runtime/deps'
import type { Reservation } from './schema'
import { reservationView } from './view'

export async function getReservation(deps: Deps, principal: Principal, reservationId: number): Promise<Reservation> {
  const row = await reservationOfPrincipal(deps.db, reservationId, principal.principalId)
  if (!row) throw new AppError('reservation_not_found', `No reservation ${reservationId} was found for this token.`)
  const [venue] = await findVenues(deps.db, [row.venueId])
  return reservationView(row, venue)
}
