import type { McpServer } from '@modelcontextprotocol/server'
import { z } from 'zod'
import { requireScope } from '../../core/principal'
import { getReservation } from '../../requests/reservation'
import { Reservation, ReservationId } from '../../requests/schemas'
import { argumentsOf, toolArguments } from '../arguments'
import type { ToolContext } from '../context'
import { RULES } from '../instructions'
import { runTool, toolResult } from '../result'
import { reservationText } from '../summaries'

export const ReservationInput = z.strictObject({ reservation_id: ReservationId })

export function registerGetReservation(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'svc_get_reservation',
    {
      title: 'Read a reservation',
      description: [
        'Read a reservation that a request of this connection made.',
        RULES.verified,
        RULES.stopNeverCancels,
        'Needs reservations:read.',
      ].join(' '),
      inputSchema: toolArguments(ReservationInput),
      outputSchema: Reservation,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        requireScope(ctx.principal, 'reservations:read')
        const { reservation_id } = argumentsOf(args)
        const reservation = await getReservation(ctx.deps, ctx.principal, reservation_id)
        return toolResult(reservation, reservationText(reservation))
      }),
  )
}
