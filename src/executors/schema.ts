// The executor's schema, beside its use case (executor-readiness.ts); src/request-use-cases/schemas.ts uses it in
// the capabilities and the request view. Only zod here, so schemas stay cheap to import.
import { z } from '@hono/zod-openapi'

/** Whether and where the service can act for a user (capabilitiesOf, and each request's view). */
export const Executor = z
  .object({
    ready: z.boolean(),
    /**
     * Why not: `platform_refuses_cloud` when the platform refused a call booking needs (details,
     * book, reservations) from the service's network; booking from a paired device is the way.
     */
    reason: z
      .enum(['resy_not_connected', 'resy_reauth_required', 'payment_method_missing', 'device_offline', 'platform_refuses_cloud'])
      .optional(),
    execution: z.enum(['cloud', 'user_device']),
  })
  .openapi('Executor')
export type Executor = z.infer<typeof Executor>

/** What the request needs: alert_only a working connection, auto_book also a payment method (as RequestSpec's mode). */
export type ExecutorMode = 'alert_only' | 'auto_book'
