// Table alerts as digests, pure: the tables a request should tell its user about wait in the
// request's state, and go out as one alert per poll (the gather window collects every venue-day
// the polls pushed), grouped by restaurant and date. The per-request gap holds later digests
// back unless a restaurant-date the user has not heard of appears; the effect runner applies the
// gap (a user setting) and the daily cap. Booking never waits for any of this: only alerts do.
import type { SlotTerms } from '../../platform/api'
import type { Table } from '../events'
import type { RequestState } from '../state'

/** How long a first digest waits for the rest of the poll's venue-days to report. */
export const GATHER_MS = 5_000

/**
 * The gather window of a request: it exists to put several venue-days' tables in one alert, so a
 * request watching one venue-day has nothing to wait for and is told at once.
 */
export const gatherFor = (state: Pick<RequestState, 'watching'>) => (state.watching.length > 1 ? GATHER_MS : 0)

/** A send that did not answer within this died with its object: the next alarm sends again. */
export const SEND_TIMEOUT_MS = 60_000
/** Tables kept waiting at most (the oldest beyond it are dropped from the next digest). */
export const PENDING_LIMIT = 300
/** Restaurant-dates remembered as told (bounded like `alerted`). */
export const DAYS_LIMIT = 500

export interface DigestTable extends Table {
  venueName: string
  venuePage: string | null
  /** The fee or deposit in words ("deposit $50"), null when booking costs nothing up front. */
  fee: string | null
  /** Why an auto_book request did not book it, if it could have. */
  note: string | null
  /** The slot's key (match.ts), which each table is told by once. */
  key: string
}

export interface PendingDigest {
  tables: DigestTable[]
  /** When the next attempt to send is due. */
  dueAt: number
  /** Set while a send is under way. */
  sendingAt: number | null
}

export const restaurantDate = (t: Pick<Table, 'venueId' | 'day'>) => `${t.venueId}:${t.day}`

/** "$25", "$12.50": an amount in the words of an alert. */
export const money = (amount: number) => `$${Number.isInteger(amount) ? amount : amount.toFixed(2)}`

/** What the find slot says booking costs, in a few words; null for nothing. */
export function feeWords(terms: SlotTerms | undefined): string | null {
  if (!terms) return null
  if (terms.template?.isEvent) return terms.depositFee === null ? 'ticketed' : `ticket ${money(terms.depositFee)}`
  if (terms.depositFee !== null) return `deposit ${money(terms.depositFee)}`
  if (terms.isPaid && terms.cancellationFee) return `card held, ${money(terms.cancellationFee)} cancellation fee`
  return null
}

/**
 * Adds tables to the waiting digest. A first digest (or one with a restaurant-date not told yet)
 * goes after the request's gather window; otherwise the send already due decides (the gap may hold it).
 */
export function addToDigest(
  state: Pick<RequestState, 'digest' | 'digestDays' | 'watching'>,
  tables: DigestTable[],
  now: number,
): PendingDigest {
  const pending = state.digest
  const known = new Set(pending?.tables.map((t) => t.key))
  const added = tables.filter((t) => !known.has(t.key))
  const all = [...(pending?.tables ?? []), ...added].slice(-PENDING_LIMIT)
  const soon = now + gatherFor(state)
  if (!pending) return { tables: all, dueAt: soon, sendingAt: null }
  const told = new Set([...state.digestDays, ...pending.tables.map(restaurantDate)])
  const newDay = added.some((t) => !told.has(restaurantDate(t)))
  return { ...pending, tables: all, dueAt: newDay ? Math.min(pending.dueAt, soon) : pending.dueAt }
}

/** When the waiting digest should be tried: its due time, or the end of a send that died. */
export function digestAlarm(state: Pick<RequestState, 'digest'>): number | null {
  const d = state.digest
  if (!d || d.tables.length === 0) return null
  return d.sendingAt === null ? d.dueAt : Math.max(d.dueAt, d.sendingAt + SEND_TIMEOUT_MS)
}

/**
 * The per-request cap: a digest may go when none went within the gap, or when it names a
 * restaurant-date the user has not been told of; otherwise it waits until the gap has passed.
 */
export function gapAllows(
  input: { lastSentAt: number | null; knownDays: readonly string[]; tables: readonly Table[]; gapMs: number },
  now: number,
): { send: true } | { send: false; until: number } {
  const { lastSentAt, gapMs } = input
  if (lastSentAt === null || now - lastSentAt >= gapMs) return { send: true }
  const known = new Set(input.knownDays)
  if (input.tables.some((t) => !known.has(restaurantDate(t)))) return { send: true }
  return { send: false, until: lastSentAt + gapMs }
}

/** The digest's dedupe key: the same tables never make two alerts (a send retried after a crash). */
export function digestKey(requestId: string, tables: readonly Pick<DigestTable, 'key'>[]): string {
  let hash = 0x811c9dc5
  for (const ch of tables.map((t) => t.key).join('|')) {
    hash ^= ch.charCodeAt(0)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return `${requestId}:digest:${tables.length}:${hash.toString(16)}`
}
