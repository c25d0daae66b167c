// One zod schema per concept. REST validates and documents with them (OpenAPI), MCP tools
// take the same objects as input and output schemas, and types come from z.infer.
import { z } from '@hono/zod-openapi'
import { STATUSES } from '../core/status'
import { Executor } from '../executors/schema'
import { DATE_SHAPE, DATE_TIME_WITH_OFFSET_SHAPE, isCalendarDate, isDateTimeWithOffset } from '../lib/calendar-text'
import { withoutControlCharacters } from '../lib/text'
import { isValidTimeZone } from '../lib/zoned-time'
import { Reservation } from '../reservations/schema'
import { Restaurant } from '../venues/schema'
import { isCursor } from './cursor'

const HHMM = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use 24-hour time as HH:MM, from 00:00 to 23:59.')
  .openapi({ example: '19:00' })

// A short pattern for the shape and the calendar checked in code (src/lib/calendar-text.ts), so
// the JSON Schema hosts read stays small and 2026-02-30 is still refused, by name.
const CalendarDate = z
  .string()
  .regex(DATE_SHAPE, 'Use a calendar date as YYYY-MM-DD.')
  .refine((date) => !DATE_SHAPE.test(date) || isCalendarDate(date), {
    error: (issue) => `${String(issue.input)} is not a calendar date: that month has no such day. Use YYYY-MM-DD.`,
  })
  .openapi({ example: '2026-12-05' })
  // After .openapi(), which would drop it: both the OpenAPI document and the tools show the format.
  .meta({ format: 'date' })

const DATE_TIME_MESSAGE = 'Use a date-time with a UTC offset, such as 2026-12-05T23:00:00-05:00.'
const DateTimeWithOffset = z
  .string()
  .regex(DATE_TIME_WITH_OFFSET_SHAPE, DATE_TIME_MESSAGE)
  .refine((text) => !DATE_TIME_WITH_OFFSET_SHAPE.test(text) || isDateTimeWithOffset(text), {
    error: (issue) => `${String(issue.input)} is not a real date and time. ${DATE_TIME_MESSAGE}`,
  })

const unique = <T>(items: T[]) => new Set(items).size === items.length

/** The fields of a request spec, shared by the input schema and the view. */
const specFields = {
  // Shown to the user on pages and in alerts: control and bidirectional characters are dropped.
  title: z
    .string()
    .overwrite(withoutControlCharacters)
    .max(120, 'The title can be at most 120 characters.')
    .default('')
    .describe('A short name for the user, such as "Anniversary dinner"; at most 120 characters.'),
  venue_ids: z
    .array(z.number().int().positive('Venue ids are positive integers from restaurant search.'))
    .min(1, 'Give at least one venue.')
    .max(8, 'Give at most 8 venues.')
    .refine(unique, 'Each venue may appear only once.')
    .describe("1 to 8 distinct venue ids from restaurant search, all in the request's timezone."),
  dates: z
    .array(CalendarDate)
    .min(1, 'Give at least one date.')
    .max(42, 'Give at most 42 dates.')
    .refine(unique, 'Each date may appear only once.')
    .describe("1 to 42 distinct dates (YYYY-MM-DD) in the request's timezone, from today through the next 90 days; no ranges."),
  party_size: z
    .number()
    .int()
    .min(1, 'Party size is 1 to 20.')
    .max(20, 'Party size is 1 to 20.')
    .default(2)
    .describe('Number of guests, 1 to 20.'),
  earliest_time: HHMM.describe("Start of the time window on each date, 24-hour HH:MM in the request's timezone, inclusive."),
  latest_time: HHMM.describe('End of the time window, inclusive; not before earliest_time (split an overnight window into two requests).'),
  timezone: z
    .string()
    .max(80, 'The time zone name can be at most 80 characters.')
    .refine(isValidTimeZone, 'Use an IANA time zone name such as America/New_York.')
    .default('America/New_York')
    .describe("IANA time zone of the dates and times: the venues' time_zone from restaurant search."),
  seating: z.enum(['any', 'indoor', 'outdoor']).default('any').describe('Which tables match: any, indoor or outdoor.'),
  mode: z
    .enum(['alert_only', 'auto_book'])
    .default('alert_only')
    .describe(
      'alert_only: watch at once and alert the user on each matching table. auto_book: book one matching table, only after the user approves this exact request at its action_url.',
    ),
  max_cancellation_fee_per_person: z
    .number()
    .min(0, 'The fee limit is 0 to 1000 USD per person.')
    .max(1000, 'The fee limit is 0 to 1000 USD per person.')
    .default(0)
    .describe(
      'The highest cancellation or no-show fee per person in USD (0 to 1000) the user accepts: a table with a higher fee is only alerted, never booked. Deposits and prepaid meals are never booked.',
    ),
  fee_review_hours: z
    .number()
    .int()
    .min(0, 'Use 0 to 168 hours.')
    .max(168, 'Use 0 to 168 hours.')
    .default(3)
    .describe(
      'Hours, 0 to 168: a table is booked only if its free-cancellation deadline is at least this far away, so the user has time to review.',
    ),
  expires_at: DateTimeWithOffset.openapi({ example: '2026-12-05T23:00:00-05:00' })
    .meta({ format: 'date-time' })
    .describe(
      'When watching stops: a date-time with a UTC offset, in the future, by the end of the last requested window, and before the token or connection expires.',
    ),
  max_bookings: z
    .literal(1, 'A request books at most one table: max_bookings must be 1.')
    .default(1)
    .describe('Tables to book at most; must be 1.'),
}

export const RequestSpec = z
  .strictObject(specFields)
  .refine((s) => s.latest_time >= s.earliest_time, {
    path: ['latest_time'],
    message: 'latest_time must not be before earliest_time; split an overnight window into two requests.',
  })
  .openapi('RequestSpec')
export type RequestSpec = z.infer<typeof RequestSpec>
// On the registered schema itself (`.describe` would clone it, and a clone is not the component
// the OpenAPI document refers to): the MCP tools' JSON Schema and OpenAPI both show it.
z.globalRegistry.add(RequestSpec, { description: 'What to watch for: venues, dates, time window, party, seating, mode and fee limits.' })

export const UpdateBody = z
  .strictObject({
    revision: z
      .number()
      .int()
      .min(1)
      .describe('The revision of the latest view of the request; a stale one is refused with revision_conflict.'),
    spec: RequestSpec,
  })
  .openapi('RequestUpdate')
export type UpdateBody = z.infer<typeof UpdateBody>

export const IdempotencyKey = z
  .string()
  .regex(/^[A-Za-z0-9.:_-]{8,128}$/, 'Use 8 to 128 letters, digits, ".", ":", "_" or "-".')
  .describe('Your key for this call: the same key on a retry (answered once), a new key for a new spec. Kept 24 hours.')

export const Capabilities = z.object({ executor: Executor }).openapi('Capabilities')

const TraceEntry = z.object({ at: z.string(), message: z.string() }).openapi('TraceEntry')

/**
 * Something the request will do differently from what it asks, said before it is approved:
 * `venue_not_bookable`, an auto_book request's venue the service cannot book (its booking asks for
 * a captcha, or its tables are Tock's), whose tables are alerted with a link to book on the platform.
 */
export const RequestWarning = z
  .object({
    code: z.enum(['venue_not_bookable']),
    venue_id: z.number().int(),
    message: z.string(),
  })
  .openapi('RequestWarning')
export type RequestWarning = z.infer<typeof RequestWarning>

const { expires_at: _expires, ...viewSpecFields } = specFields
export const RequestView = z
  .object({
    id: z.string().openapi({ example: 'sr_3kq9x0abc' }),
    status: z.enum(STATUSES),
    revision: z.number().int(),
    action_url: z.string().optional(),
    reservations: z.array(Reservation),
    executor: Executor,
    ...viewSpecFields,
    expires_at: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    last_checked_at: z.string().nullable(),
    status_reason: z.string().nullable(),
    trace: z.array(TraceEntry),
    warnings: z
      .array(RequestWarning)
      .describe(
        'What this request will do differently from what it asks (e.g. a venue it can alert for but not book); empty when nothing.',
      ),
  })
  .openapi('Request')
export type RequestView = z.infer<typeof RequestView>

export const RequestList = z.object({ requests: z.array(RequestView), next_cursor: z.string().nullable() }).openapi('RequestList')

export const PreviewResult = z
  .object({
    valid: z.literal(true),
    spec: RequestSpec,
    restaurants: z.array(Restaurant),
    timezone: z.string(),
    executor: Executor,
    warnings: z
      .array(RequestWarning)
      .describe(
        'What the request would do differently from what it asks (e.g. a venue it can alert for but not book); show these to the user before creating.',
      ),
  })
  .openapi('PreviewResult')
export type PreviewResult = z.infer<typeof PreviewResult>

export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Requests per page, 1 to 100. Default: 20.'),
  cursor: z
    .string()
    .max(200)
    .refine(isCursor, 'This cursor is not one the service handed out.')
    .optional()
    .describe('next_cursor from the previous page, to read the next one; leave it out for the newest requests.'),
})

/** A request id as callers send it (REST path, MCP argument). */
export const RequestId = z.string().min(1).max(100).describe('The request id (sr_…) from create or list.')

export const ErrorBody = z.object({ code: z.string(), message: z.string() }).openapi('Error')

export const ValidationErrorBody = z
  .object({
    detail: z.array(z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string(), type: z.string() })),
  })
  .openapi('ValidationError')
