import type { OpenAPIHono } from '@hono/zod-openapi'
import type { ApiEnv } from '../context'
import * as handlers from './handlers'
import * as routes from './routes'

export function requestsRouter(app: OpenAPIHono<ApiEnv>) {
  return app
    .openapi(routes.previewRoute, handlers.preview)
    .openapi(routes.createRequestRoute, handlers.create)
    .openapi(routes.listRequestsRoute, handlers.list)
    .openapi(routes.getRequestRoute, handlers.get)
    .openapi(routes.updateRequestRoute, handlers.update)
    .openapi(routes.stopRequestRoute, handlers.stop)
}
