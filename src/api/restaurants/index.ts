import { createRoute, type OpenAPIHono } from '@hono/zod-openapi'
import { findRestaurants } from '../../requests/restaurants'
import { RestaurantList, RestaurantQuery } from '../../requests/schemas'
import type { ApiEnv } from '../context'
import { scope } from '../middleware'
import { errorResponses, json, security } from '../responses'

export const searchRestaurantsRoute = createRoute({
  method: 'get',
  path: '/restaurants',
  tags: ['Restaurants'],
  summary: 'Search restaurants by name for venue ids and time zones (no live availability)',
  security,
  middleware: [scope('restaurants:read')] as const,
  request: { query: RestaurantQuery },
  responses: {
    200: { description: 'Up to 8 restaurants', content: json(RestaurantList) },
    ...errorResponses(401, 403),
  },
})

export function restaurantsRouter(app: OpenAPIHono<ApiEnv>) {
  return app.openapi(searchRestaurantsRoute, async (c) =>
    c.json({ restaurants: await findRestaurants(c.get('deps'), c.req.valid('query').q) }, 200),
  )
}
