// The reservation's schema, beside its use cases (reservation.ts, calendar.ts): a request view
// lists its reservations in it (src/request-use-cases/schemas.ts), and the operation table reads one by id.
import { z } from '@hono/zod-openapi'

export const Reservation = z
  .object({
    reservation_id: z.number().int(),
    verified: z.boolean(),
    request_id: z.string(),
    venue_id: z.number().int(),
    venue_name: z.string().describe("The restaurant's name."),
    address: z.string().nullable().describe("The restaurant's street address, when the platform states one."),
    time_zone: z.string().describe("The restaurant's IANA time zone: date and time are wall-clock times there."),
    date: z.string(),
    time: z.string(),
    starts_at: z.string().describe('The same date and time as an ISO 8601 instant with the venue offset.'),
    party_size: z.number().int(),
    seating: z.string(),
    cancellation_fee_per_person: z.number().nullable(),
    free_cancellation_until: z.string().nullable(),
    manage_url: z.string(),
  })
  .openapi('Reservation')
export type Reservation = z.infer<typeof Reservation>

/** The reservation-id rule: the MCP argument as it is, the REST path coerced into it (src/api/routes.ts). */
export const ReservationId = z.number().int().positive().describe("The reservation id from a request view's reservations.")
