// Reading one reservation a request of this token (or connection) made.
import { z } from '@hono/zod-openapi'
import { getReservation as read } from '../reservations/reservation'
import { Reservation, ReservationId } from '../reservations/schema'
import { RESERVATION_EXAMPLE } from './examples'
import { fresh, operation } from './operation'
import { ReservationIdParams } from './rest-params'
import { reservationSummary } from './summaries'

export const getReservation = operation({
  name: 'get_reservation',
  scope: 'reservations:read',
  input: z.strictObject({ reservation_id: ReservationId }),
  output: Reservation,
  run: (deps, principal, { reservation_id }) => fresh(read(deps, principal, reservation_id)),
  rest: {
    method: 'get',
    path: '/reservations/{reservation_id}',
    operationId: 'getReservation',
    example: RESERVATION_EXAMPLE,
    tags: ['Reservations'],
    summary: 'Read a reservation; it is real only when verified is true',
    status: 200,
    description: 'The reservation',
    errors: [401, 403, 404],
    request: { params: ReservationIdParams },
    input: (parts) => parts.params(ReservationIdParams),
    skill: { note: 'one reservation' },
  },
  tool: {
    title: 'Read a reservation',
    description:
      "Read a reservation a request of this connection made. Call it booked only when verified is true. It is cancelled or changed on the platform's account page (manage_url); stopping a request never cancels it.",
    annotations: { readOnlyHint: true, openWorldHint: false },
    summary: reservationSummary,
  },
})
