// The schemas of restaurant search, beside its use case (restaurants.ts): src/request-use-cases/schemas.ts
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
      .object({
        days_in_advance: z.number().int(),
        time_of_day: z.string(),
        source: z
          .enum(['venue_notes', 'learned'])
          .describe("venue_notes: stated in the venue's notes on the platform; learned: seen on the platform, as new days opened."),
        confidence: z
          .number()
          .nullable()
          .describe('For a learned rule, 0 to 1: how many openings agreed and how closely they were placed; null for the notes.'),
        stated: z
          .object({ days_in_advance: z.number().int(), time_of_day: z.string() })
          .nullable()
          .describe("The notes' rule, when the platform was seen opening days otherwise (the learned rule wins); else null."),
      })
      .nullable()
      .describe('When tables are known to open: days before the date, at this local time (HH:MM) in the restaurant’s time zone.'),
    cannot_book: z
      .string()
      .nullable()
      .describe(
        'Why Tablewatch cannot book this restaurant itself, as the platform last said (an auto_book request only alerts there, with a link to book on the platform); null when it can.',
      ),
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
