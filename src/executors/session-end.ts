// When a platform session ends, and when the diner hears of it, pure. A session without a
// refresh token (a code sign-in may hand out none: docs/platform.md, "Sessions and refresh")
// simply ends at its token's JWT `exp`. One with a refresh token renews itself
// (platform-session.ts) for as long as the refresh token works: when the platform states that
// token's expiry, the session ends once both it and the last renewed token have expired. The
// diner is warned 7 days and 1 day before, each warning once (session-warnings.ts sends them).

const DAY_MS = 24 * 60 * 60 * 1000

/** What the end of a session is read from: the stored connection row. */
interface SessionFacts {
  /** The sealed refresh token; null when the platform gave none. */
  refreshCiphertext: string | null
  /** When the refresh token stops working (epoch ms); null when the platform did not say. */
  refreshExpiresAt: number | null
  /** The auth token's JWT `exp` (epoch ms); null when unreadable. */
  tokenExpiresAt: number | null
}

/** The warnings, latest first: the first whose time has come is the one due. */
const SESSION_WARNINGS = [
  { stage: '1d', beforeMs: DAY_MS },
  { stage: '7d', beforeMs: 7 * DAY_MS },
] as const

export type WarningStage = (typeof SESSION_WARNINGS)[number]['stage']

/** The earliest a warning is ever due before the end (the first warning). */
export const FIRST_WARNING_MS = 7 * DAY_MS

/**
 * When the session ends by itself: without a refresh token, its token's `exp`; with one whose
 * expiry the platform stated, the later of that and the current token's `exp` (a token renewed
 * just before the refresh token expires still works until its own end). Null when it renews for
 * as long as the platform lets it, or its end is not known (an unreadable token: it ends when the
 * platform rejects it, as before).
 */
export function sessionEndOf(facts: SessionFacts): number | null {
  if (facts.refreshCiphertext === null) return facts.tokenExpiresAt
  if (facts.refreshExpiresAt === null) return null
  return Math.max(facts.refreshExpiresAt, facts.tokenExpiresAt ?? facts.refreshExpiresAt)
}

/** The session ended by itself: its end (sessionEndOf) has passed. */
export function sessionLapsed(facts: SessionFacts, now: number): boolean {
  const end = sessionEndOf(facts)
  return end !== null && now >= end
}

/**
 * The warning due now for a session ending at `endsAt`, or null (too early, or already over).
 * Only the latest due one: a session connected 3 days before its end gets the 7-day warning
 * (saying 3 days), and one found a day before gets only the 1-day warning.
 */
export function dueWarning(endsAt: number, now: number): WarningStage | null {
  if (now >= endsAt) return null
  return SESSION_WARNINGS.find((w) => endsAt - now <= w.beforeMs)?.stage ?? null
}

/** The same warning of the same session is told once (the inbox's dedupe key, across cron runs and retries). */
export const warningKey = (endsAt: number, stage: WarningStage) => `session-ends:${endsAt}:${stage}`

/** "in 6 days", "in 20 hours", "within the hour": how far the end is, without a time zone. */
export function timeLeftWords(endsAt: number, now: number): string {
  const hours = Math.floor((endsAt - now) / 3_600_000)
  if (hours >= 48) return `in ${Math.floor(hours / 24)} days`
  if (hours >= 24) return 'in a day'
  if (hours >= 2) return `in ${hours} hours`
  return hours === 1 ? 'in an hour' : 'within the hour'
}
