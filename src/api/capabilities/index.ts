import { createRoute, type OpenAPIHono } from '@hono/zod-openapi'
import { capabilitiesOf } from '../../requests/executor'
import { Capabilities } from '../../requests/schemas'
import type { ApiEnv } from '../context'
import { scope } from '../middleware'
import { errorResponses, json, security } from '../responses'

export const capabilitiesRoute = createRoute({
  method: 'get',
  path: '/capabilities',
  tags: ['Capabilities'],
  summary: 'Whether the service can watch and book for this user now',
  security,
  middleware: [scope('requests:read')] as const,
  responses: {
    200: { description: 'Executor readiness', content: json(Capabilities) },
    ...errorResponses(401, 403),
  },
})

export function capabilitiesRouter(app: OpenAPIHono<ApiEnv>) {
  return app.openapi(capabilitiesRoute, async (c) => c.json(await capabilitiesOf(c.get('deps'), c.get('principal').userId), 200))
}
