import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi'
import { getReservation } from '../../requests/reservation'
import { Reservation } from '../../requests/schemas'
import type { ApiEnv } from '../context'
import { scope } from '../middleware'
import { errorResponses, json, security } from '../responses'

export const getReservationRoute = createRoute({
  method: 'get',
  path: '/reservations/{reservation_id}',
  tags: ['Reservations'],
  summary: 'Read a reservation; it is real only when verified is true',
  security,
  middleware: [scope('reservations:read')] as const,
  request: {
    params: z.object({
      reservation_id: z.coerce
        .number()
        .int()
        .positive()
        .openapi({ param: { name: 'reservation_id', in: 'path' }, type: 'integer', example: 42 }),
    }),
  },
  responses: {
    200: { description: 'The reservation', content: json(Reservation) },
    ...errorResponses(401, 403, 404),
  },
})

export function reservationsRouter(app: OpenAPIHono<ApiEnv>) {
  return app.openapi(getReservationRoute, async (c) =>
    c.json(await getReservation(c.get('deps'), c.get('principal'), c.req.valid('param').reservation_id), 200),
  )
}
