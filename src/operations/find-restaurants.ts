// Restaurant search: venue ids and time zones for a spec (no live availability).
import { findRestaurants as searchRestaurants } from '../venues/restaurants'
import { RestaurantList, RestaurantQuery } from '../venues/schema'
import { RESTAURANTS_EXAMPLE } from './examples'
import { fresh, operation } from './operation'
import { restaurantsSummary } from './summaries'

export const findRestaurants = operation({
  name: 'find_restaurants',
  scope: 'restaurants:read',
  input: RestaurantQuery,
  output: RestaurantList,
  run: (deps, _principal, { q }) => fresh(searchRestaurants(deps, q).then((restaurants) => ({ restaurants }))),
  rest: {
    method: 'get',
    path: '/restaurants',
    operationId: 'findRestaurants',
    example: RESTAURANTS_EXAMPLE,
    tags: ['Restaurants'],
    summary: 'Search restaurants by name for venue ids and time zones (no live availability)',
    status: 200,
    description: 'Up to 8 restaurants',
    errors: [401, 403],
    request: { query: RestaurantQuery },
    input: (parts) => parts.query(RestaurantQuery),
    skill: {
      path: '/restaurants?q=…',
      note: '`q` is 2 to 200 characters; up to 8 `restaurants` with `venue_id`, `name`, `city`, `neighborhood`, `time_zone`',
    },
  },
  tool: {
    title: 'Find restaurants',
    description:
      "Search restaurants by name, neighborhood or city for their venue_id and time_zone (send it as the request's timezone). Up to 8 results; no live availability.",
    // Also asks the reservation platform's venue search; a venue found there joins the
    // service's catalog, a cache of public facts, so nothing the user owns changes.
    annotations: { readOnlyHint: true, openWorldHint: true },
    summary: (result) => restaurantsSummary(result.restaurants),
  },
})
