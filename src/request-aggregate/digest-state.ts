// The digest sub-state of a request: what the user was told (each slot, and when), the tables
// waiting for the next digest, and when the last one went out. Its fields are stored flat in the
// request's state (state.ts); decide() changes them through the small reducers here. The digest's
// own rules (gathering, limits, the gap) are alerts/digest.ts.
import type { PendingDigest } from '../alerts/digest'

export interface DigestState {
  /** Slot keys the user was told about or that were tried (bounded): never tried again, told again only when they come back. */
  alerted: string[]
  /** When each told slot's last alert went out (bounded like `alerted`): the per-request gap counts from it. */
  toldAt: Record<string, number>
  /** Tables waiting to be told in the next digest (alerts/digest.ts). */
  digest: PendingDigest | null
  /** When the last digest went out. */
  digestSentAt: number | null
}

const ALERTED_LIMIT = 500

/** A new request has told nothing. */
export const nothingTold = (): DigestState => ({ alerted: [], toldAt: {}, digest: null, digestSentAt: null })

/** These slots are told (or about to be, in `digest`): never again until they come back. */
export const toldOf = (
  state: Pick<DigestState, 'alerted'>,
  keys: string[],
  digest: PendingDigest,
): Pick<DigestState, 'alerted' | 'digest'> => ({
  alerted: [...state.alerted.filter((k) => !keys.includes(k)), ...keys].slice(-ALERTED_LIMIT),
  digest,
})

/** The waiting digest is being sent (one send at a time). */
export const digestSending = (pending: PendingDigest, now: number): Pick<DigestState, 'digest'> => ({
  digest: { ...pending, sendingAt: now },
})

export interface DigestSent {
  /** The tables the alert told. */
  keys: string[]
  at: number
  more?: Record<string, number>
  /** Tables that came back within the gap of their last alert: settled without an alert. */
  repeats?: string[]
}

/** The digest went out: tables that arrived while it was sent wait for the next one, after `gatherMs`. */
export function digestSent(
  state: DigestState,
  sent: DigestSent,
  gatherMs: number,
  now: number,
): Pick<DigestState, 'digest' | 'digestSentAt' | 'toldAt'> {
  const pending = state.digest
  const settled = new Set([...sent.keys, ...(sent.repeats ?? [])])
  const left = pending?.tables.filter((t) => !settled.has(t.key)) ?? []
  const more = moreLeft(pending?.more, sent.more)
  const digest = left.length > 0 ? { tables: left, ...(more ? { more } : {}), dueAt: now + gatherMs, sendingAt: null } : null
  if (sent.keys.length === 0) return { digest, digestSentAt: state.digestSentAt, toldAt: state.toldAt }
  return { digest, digestSentAt: sent.at, toldAt: toldAtAfter(state.toldAt, sent.keys, sent.at) }
}

/** The told times with these keys told at `at`, the newest last, bounded like `alerted`. */
function toldAtAfter(toldAt: Record<string, number>, keys: string[], at: number): Record<string, number> {
  const fresh = new Set(keys)
  const kept = Object.entries(toldAt).filter(([key]) => !fresh.has(key))
  return Object.fromEntries([...kept, ...keys.map((key) => [key, at] as const)].slice(-ALERTED_LIMIT))
}

/** The counted tables still waiting after a send: those counted while it was under way. */
function moreLeft(waiting: Record<string, number> | undefined, sent: Record<string, number> | undefined) {
  const left = Object.entries(waiting ?? {})
    .map(([day, n]) => [day, n - (sent?.[day] ?? 0)] as const)
    .filter(([, n]) => n > 0)
  return left.length > 0 ? Object.fromEntries(left) : undefined
}
