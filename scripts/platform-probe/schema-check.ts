// Where an answer disagrees with the client's own zod schemas (src/platform/wire.ts): the whole
// answer, and for the lists the client reads entry by entry (find venues, templates and slots;
// the account's reservations), each entry, because the client skips an odd entry rather than fail.
import type { z } from 'zod'
import {
  calendarAnswer,
  configAnswer,
  findAnswer,
  findSlot,
  findTemplate,
  findVenue,
  loginAnswer,
  reservationEntry,
  reservationsAnswer,
  searchAnswer,
  userAnswer,
  venueAnswer,
} from '../../src/platform/wire'

/** The calls the probe makes, named as in the recordings. */
export type CallName = 'geoip' | 'search' | 'venue' | 'config' | 'calendar' | 'find' | 'login' | 'user' | 'reservations' | 'sign-in-check'

/** Which schema of wire.ts reads each answer; null where the client makes no such call. */
const SCHEMAS: Record<CallName, { name: string; schema: z.ZodType } | null> = {
  geoip: null,
  search: { name: 'searchAnswer', schema: searchAnswer },
  venue: { name: 'venueAnswer', schema: venueAnswer },
  config: { name: 'configAnswer', schema: configAnswer },
  calendar: { name: 'calendarAnswer', schema: calendarAnswer },
  find: { name: 'findAnswer', schema: findAnswer },
  login: { name: 'loginAnswer', schema: loginAnswer },
  user: { name: 'userAnswer', schema: userAnswer },
  reservations: { name: 'reservationsAnswer', schema: reservationsAnswer },
  'sign-in-check': null,
}

export interface SchemaIssue {
  /** Where in the answer, e.g. results.venues[0].slots[2].date.start */
  path: string
  /** The schema that refused it, and why. */
  detail: string
}

export const schemaNameOf = (call: CallName) => SCHEMAS[call]?.name ?? null

const pathOf = (prefix: string, path: readonly PropertyKey[]) =>
  path.reduce<string>((at, key) => (typeof key === 'number' ? `${at}[${key}]` : at ? `${at}.${String(key)}` : String(key)), prefix) ||
  '(root)'

function issuesOf(schema: z.ZodType, name: string, value: unknown, prefix = ''): SchemaIssue[] {
  const parsed = schema.safeParse(value)
  if (parsed.success) return []
  return parsed.error.issues.map((issue) => ({ path: pathOf(prefix, issue.path), detail: `${name}: ${issue.message}` }))
}

const asObject = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/** Every disagreement between a 2xx answer's body and the client's schemas for that call. */
export function schemaIssues(call: CallName, body: unknown): SchemaIssue[] {
  const entry = SCHEMAS[call]
  if (!entry) return []
  const whole = issuesOf(entry.schema, entry.name, body)
  if (whole.length > 0) return whole
  if (call === 'find') return findEntryIssues(body)
  if (call === 'reservations') {
    const list = asArray(asObject(body)?.reservations)
    return list.flatMap((r, i) => issuesOf(reservationEntry, 'reservationEntry (the client skips this entry)', r, `reservations[${i}]`))
  }
  return []
}

function findEntryIssues(body: unknown): SchemaIssue[] {
  const venues = asArray(asObject(asObject(body)?.results)?.venues)
  return venues.flatMap((venue, v) => {
    const at = `results.venues[${v}]`
    const own = issuesOf(findVenue, 'findVenue (the client skips this venue)', venue, at)
    if (own.length > 0) return own
    const templates = Object.entries(asObject(asObject(venue)?.templates) ?? {}).flatMap(([id, t]) =>
      issuesOf(findTemplate, 'findTemplate (the client skips this template)', t, `${at}.templates.${id}`),
    )
    const slots = asArray(asObject(venue)?.slots).flatMap((s, i) =>
      issuesOf(findSlot, 'findSlot (the client skips this slot)', s, `${at}.slots[${i}]`),
    )
    return [...templates, ...slots]
  })
}
