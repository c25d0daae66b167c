// The REST parts several operations share: a request id in the path, the idempotency key in a
// header, a reservation id in the path. Each is the operation's own schema, documented where it
// travels.
import { z } from '@hono/zod-openapi'
import { IdempotencyKey, RequestId } from '../request-use-cases/schemas'
import { ReservationId } from '../reservations/schema'

export const RequestIdParams = z.object({
  request_id: RequestId.openapi({ param: { name: 'request_id', in: 'path' }, example: 'sr_3kq9x0abc' }),
})

export const IdempotencyHeaders = z.object({
  // Optional to the validator so a missing key is the contract's `idempotency_key_required`.
  'idempotency-key': IdempotencyKey.optional().openapi({
    param: { name: 'idempotency-key', in: 'header', required: true },
    description: 'Required. Reuse the same key when retrying the same body.',
  }),
})

export const ReservationIdParams = z.object({
  // The path carries text: coerced, then the one reservation-id rule of the operation.
  reservation_id: z.coerce
    .number()
    .pipe(ReservationId)
    .openapi({ param: { name: 'reservation_id', in: 'path' }, type: 'integer', example: 42 }),
})

export const RequestIdInput = z.strictObject({ request_id: RequestId })
