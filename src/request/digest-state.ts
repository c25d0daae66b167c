// The digest sub-state of a request: what the user was told (each slot once), the tables waiting
// for the next digest, when the last one went out and which restaurant-dates it named. Its fields
// are stored flat in the request's state (state.ts); decide() changes them through the small
// reducers here. The digest's own rules (gathering, limits, the gap) are alerts/digest.ts.
import { DAYS_LIMIT, type PendingDigest } from '../alerts/digest'

export interface DigestState {
  /** Slot keys the user was already told about (bounded), so each slot alerts once. */
  alerted: string[]
  /** Tables waiting to be told in the next digest (alerts/digest.ts). */
  digest: PendingDigest | null
  /** When the last digest went out (the per-request gap counts from it). */
  digestSentAt: number | null
  /** Restaurant-dates ("venueId:day") the user was told of (bounded). */
  digestDays: string[]
}

const ALERTED_LIMIT = 500

/** A new request has told nothing. */
export const nothingTold = (): DigestState => ({ alerted: [], digest: null, digestSentAt: null, digestDays: [] })

/** These slots are told (or about to be, in `digest`): never again. */
export const toldOf = (
  state: Pick<DigestState, 'alerted'>,
  keys: string[],
  digest: PendingDigest,
): Pick<DigestState, 'alerted' | 'digest'> => ({
  alerted: [...state.alerted, ...keys].slice(-ALERTED_LIMIT),
  digest,
})

/** The waiting digest is being sent (one send at a time). */
export const digestSending = (pending: PendingDigest, now: number): Pick<DigestState, 'digest'> => ({
  digest: { ...pending, sendingAt: now },
})

/** The user's gap holds the digest back until then. */
export const digestHeld = (pending: PendingDigest, until: number, now: number): Pick<DigestState, 'digest'> => ({
  digest: { ...pending, sendingAt: null, dueAt: Math.max(until, now) },
})

export interface DigestSent {
  keys: string[]
  days: string[]
  at: number
  more?: Record<string, number>
}

/** The digest went out: tables that arrived while it was sent wait for the next one, after `gatherMs`. */
export function digestSent(
  state: DigestState,
  sent: DigestSent,
  gatherMs: number,
  now: number,
): Pick<DigestState, 'digest' | 'digestSentAt' | 'digestDays'> {
  const pending = state.digest
  const keys = new Set(sent.keys)
  const left = pending?.tables.filter((t) => !keys.has(t.key)) ?? []
  const more = moreLeft(pending?.more, sent.more)
  const digest = left.length > 0 ? { tables: left, ...(more ? { more } : {}), dueAt: now + gatherMs, sendingAt: null } : null
  const digestDays = [...new Set([...state.digestDays, ...sent.days])].slice(-DAYS_LIMIT)
  return { digest, digestSentAt: sent.at, digestDays }
}

/** The counted tables still waiting after a send: those counted while it was under way. */
function moreLeft(waiting: Record<string, number> | undefined, sent: Record<string, number> | undefined) {
  const left = Object.entries(waiting ?? {})
    .map(([day, n]) => [day, n - (sent?.[day] ?? 0)] as const)
    .filter(([, n]) => n > 0)
  return left.length > 0 ? Object.fromEntries(left) : undefined
}
