// The schemas of restaurant search, beside its use case (restaurants.ts): src/requests/schemas.ts
// uses Restaurant in a preview, and the operation table names the search's query and answer.
import { z } from '@hono/zod-openapi'

export const Restaurant = z
  .object({
    venue_id: z.number().int(),
    name: z.string(),
    city: z.string(),
    neighborhood: z.string(),
    time_zone: z.string(),
    release_rule: z
      .object({ days_in_advance: z.number().int(), time_of_day: z.string() })
      .nullable()
      .describe('When tables are known to open: days before the date, at this local time.'),
  })
  .openapi('Restaurant')
export type Restaurant = z.infer<typeof Restaurant>

export const RestaurantList = z.object({ restaurants: z.array(Restaurant) }).openapi('RestaurantList')

/** Restaurant search: the REST query string and the MCP tool's arguments. */
export const RestaurantQuery = z.object({
  q: z
    .string()
    .min(2, 'Search with 2 to 200 characters.')
    .max(200, 'Search with 2 to 200 characters.')
    .describe('A restaurant name, neighborhood or city, 2 to 200 characters.'),
})
