// Table alerts as digests, pure: the tables a request should tell its user about wait in the
// request's state, and go out as one alert per poll (the gather window collects every venue-day
// the polls pushed), grouped by restaurant and date. A table the user has not been told about goes
// out at once; the per-request gap (a user setting) only keeps a table that went and came back
// from being told again within the gap of its last alert (docs/decisions/alerts.md, "The gap").
// The effect runner applies the gap and the daily cap. Booking never waits for any of this.
import { betterTable } from '../db/alert-groups'
import { dollars } from '../lib/money'
import type { SlotTerms } from '../platform/api'
import type { DigestTable, Table } from './notice'

/** How long a first digest waits for the rest of the poll's venue-days to report. */
export const GATHER_MS = 5_000

/**
 * The gather window of a request: it exists to put several venue-days' tables in one alert, so a
 * request watching one venue-day has nothing to wait for and is told at once.
 */
export const gatherFor = (state: Pick<DigestOfRequest, 'watching'>) => (state.watching.length > 1 ? GATHER_MS : 0)

/** A send that did not answer within this died with its object: the next alarm sends again. */
const SEND_TIMEOUT_MS = 60_000
/**
 * Tables a waiting digest lists one by one, at most. Beyond it, each restaurant-date keeps its
 * best tables (at least BEST_PER_DAY, however many restaurant-dates there are) and the rest are
 * counted, never dropped silently: the alert says how many more each restaurant-date has.
 */
export const PENDING_LIMIT = 300
/** The times an alert shows per restaurant-date before "+N more". */
export const BEST_PER_DAY = 3

/** What the digest reads of its request's state (src/request-aggregate/state.ts holds these fields). */
export interface DigestOfRequest {
  watching: string[]
  digest: PendingDigest | null
}

export interface PendingDigest {
  tables: DigestTable[]
  /** Tables beyond PENDING_LIMIT, counted per restaurant-date (`restaurantDate`), not listed. */
  more?: Record<string, number>
  /** When the next attempt to send is due. */
  dueAt: number
  /** Set while a send is under way. */
  sendingAt: number | null
}

export const restaurantDate = (t: Pick<Table, 'venueId' | 'day'>) => `${t.venueId}:${t.day}`

/**
 * What the find slot says booking costs, in a few words, per person as the request's limits are
 * (the service reads the platform's fees per person, the stricter reading; docs/platform.md,
 * "Money terms"); null for nothing.
 */
export function feeWords(terms: SlotTerms | undefined): string | null {
  if (!terms) return null
  if (terms.template?.isEvent) return terms.depositFee === null ? 'ticketed' : `ticket ${dollars(terms.depositFee)} per person`
  if (terms.depositFee !== null) return `deposit ${dollars(terms.depositFee)} per person`
  if (terms.isPaid && terms.cancellationFee) return `${dollars(terms.cancellationFee)} per person if you cancel late (card held)`
  return null
}

/**
 * Adds tables to the waiting digest, which goes after the request's gather window (or sooner, when
 * it was due sooner): a table the user has not heard of is never held back.
 */
export function addToDigest(state: Pick<DigestOfRequest, 'digest' | 'watching'>, tables: DigestTable[], now: number): PendingDigest {
  const pending = state.digest
  const known = new Set(pending?.tables.map((t) => t.key))
  const added = tables.filter((t) => !known.has(t.key))
  const { tables: all, more } = withinLimit([...(pending?.tables ?? []), ...added], pending?.more ?? {})
  const counted = Object.keys(more).length > 0 ? { more } : {}
  const soon = now + gatherFor(state)
  if (!pending) return { tables: all, ...counted, dueAt: soon, sendingAt: null }
  return { tables: all, ...counted, dueAt: Math.min(pending.dueAt, soon), sendingAt: pending.sendingAt }
}

/**
 * Keeps at most PENDING_LIMIT tables listed, fairly: every restaurant-date keeps its best `quota`
 * tables, the largest quota (at least BEST_PER_DAY) that fits; the rest are counted in `more`.
 * So a restaurant with few tables is never crowded out by one with many.
 */
function withinLimit(tables: DigestTable[], more: Record<string, number>): { tables: DigestTable[]; more: Record<string, number> } {
  if (tables.length <= PENDING_LIMIT) return { tables, more }
  const byDay = new Map<string, DigestTable[]>()
  for (const t of tables) byDay.set(restaurantDate(t), [...(byDay.get(restaurantDate(t)) ?? []), t])
  const fits = (q: number) => [...byDay.values()].reduce((n, list) => n + Math.min(list.length, q), 0) <= PENDING_LIMIT
  let quota = BEST_PER_DAY
  while (fits(quota + 1) && [...byDay.values()].some((list) => list.length > quota)) quota++
  const kept = new Set<DigestTable>()
  const counted = { ...more }
  for (const [day, list] of byDay) {
    for (const t of [...list].sort(betterTable).slice(0, quota)) kept.add(t)
    if (list.length > quota) counted[day] = (counted[day] ?? 0) + list.length - quota
  }
  return { tables: tables.filter((t) => kept.has(t)), more: counted }
}

/** How many tables a digest tells of: those it lists and those it counts. */
export const tablesTold = (tables: readonly unknown[], more: Record<string, number> | undefined) =>
  tables.length + Object.values(more ?? {}).reduce((n, m) => n + m, 0)

/** When the waiting digest should be tried: its due time, or the end of a send that died. */
export function digestAlarm(state: Pick<DigestOfRequest, 'digest'>): number | null {
  const d = state.digest
  if (!d || d.tables.length === 0) return null
  return d.sendingAt === null ? d.dueAt : Math.max(d.dueAt, d.sendingAt + SEND_TIMEOUT_MS)
}

/**
 * The per-request gap: a table told before (it went and came back, `toldAt`) is told again only
 * when its last alert is at least the gap ago; every other table goes now. Returns what goes and
 * the keys of the repeats it leaves out.
 */
export function withinGap<T extends Pick<DigestTable, 'key' | 'toldAt'>>(
  tables: readonly T[],
  gapMs: number,
  now: number,
): { send: T[]; repeats: string[] } {
  const tooSoon = (t: T) => t.toldAt !== undefined && now - t.toldAt < gapMs
  return { send: tables.filter((t) => !tooSoon(t)), repeats: tables.filter(tooSoon).map((t) => t.key) }
}

/**
 * The digest's dedupe key: the same tables never make two alerts (a send retried after a crash).
 * A table told again after it came back carries when it was told before, so its new alert is not
 * taken for the old one.
 */
export function digestKey(requestId: string, tables: readonly Pick<DigestTable, 'key' | 'toldAt'>[]): string {
  let hash = 0x811c9dc5
  for (const ch of tables.map((t) => (t.toldAt === undefined ? t.key : `${t.key}@${t.toldAt}`)).join('|')) {
    hash ^= ch.charCodeAt(0)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return `${requestId}:digest:${tables.length}:${hash.toString(16)}`
}
