// Hard caps on platform calls that several objects make together: per venue (find calls while
// release bursts poll fast) and per user account (the calls made with the user's token). A token
// bucket per subject lives in one LimiterObject each; the bucket arithmetic here is pure.

export interface Limit {
  /** Calls that may be made at once after a quiet spell. */
  capacity: number
  /** Calls regained per second. */
  perSecond: number
}

/** Find calls for one venue (all its days and party sizes) while any of them is in a release burst. */
export const VENUE_LIMIT: Limit = { capacity: 4, perSecond: 4 }
/** Calls with one user's platform token (booking details, reservations, book). */
export const ACCOUNT_LIMIT: Limit = { capacity: 12, perSecond: 1 }

export interface Bucket {
  tokens: number
  at: number
}

/** Takes `cost` from the bucket if it holds that much: 0 (go) or how long to wait. */
export function take(bucket: Bucket | null, limit: Limit, cost: number, now: number): { bucket: Bucket; waitMs: number } {
  const elapsed = bucket ? Math.max(0, now - bucket.at) / 1000 : Number.POSITIVE_INFINITY
  const tokens = Math.min(limit.capacity, (bucket?.tokens ?? limit.capacity) + elapsed * limit.perSecond)
  if (tokens >= cost) return { bucket: { tokens: tokens - cost, at: now }, waitMs: 0 }
  return { bucket: { tokens, at: now }, waitMs: Math.ceil(((cost - tokens) / limit.perSecond) * 1000) }
}

/** A venue (the service's finds), a venue as one user's paired device sees it, or a user's platform account. */
export type Subject = `venue:${number}` | `venue:${number}@${string}` | `account:${string}`

/**
 * Asks the subject's limiter for `cost` calls: how long to wait in ms, 0 to go ahead. (Not the
 * service-wide budget of src/budget, which every cloud call passes as well.)
 */
export function limiterWait(env: Cloudflare.Env, subject: Subject, cost = 1): Promise<number> {
  const limit = subject.startsWith('venue:') ? VENUE_LIMIT : ACCOUNT_LIMIT
  return env.LIMITER.get(env.LIMITER.idFromName(subject)).take(limit, cost)
}
