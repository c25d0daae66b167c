import type { McpServer } from '@modelcontextprotocol/server'
import { requireScope } from '../../core/principal'
import { findRestaurants } from '../../requests/restaurants'
import { RestaurantList, RestaurantQuery } from '../../requests/schemas'
import { argumentsOf, toolArguments } from '../arguments'
import type { ToolContext } from '../context'
import { runTool, toolResult } from '../result'
import { restaurantsText } from '../summaries'

export function registerFindRestaurants(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'svc_find_restaurants',
    {
      title: 'Find restaurants',
      description:
        "Search restaurants by name, neighborhood or city (2 to 200 characters) for their venue_id and time_zone. Up to 8 results; no live availability. Send a venue's time_zone as the request's timezone. Needs restaurants:read.",
      inputSchema: toolArguments(RestaurantQuery),
      outputSchema: RestaurantList,
      // Also asks the reservation platform's venue search; a venue found there joins the
      // service's catalog, a cache of public facts, so nothing the user owns changes.
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        requireScope(ctx.principal, 'restaurants:read')
        const { q } = argumentsOf(args)
        const restaurants = await findRestaurants(ctx.deps, q)
        return toolResult({ restaurants }, restaurantsText(restaurants))
      }),
  )
}
