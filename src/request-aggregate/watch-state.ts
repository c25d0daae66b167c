// The watch sub-state of a request: which venue-days it is subscribed to, why it waits when it
// should watch, which checks fail, and the last check it heard of. Its fields are stored flat in
// the request's state (state.ts); decide() changes them through the small reducers here.

/** Why a request that should watch does not: the user's platform connection, or their paired device is offline. */
export interface Blocked {
  reason: 'no_connection' | 'reauth' | 'device_offline'
  /** When the request looks at the connection again by itself (connecting also wakes it). */
  retryAt: number
}

export interface WatchState {
  /** The latest platform check this request heard of (the view asks the availability objects first). */
  lastCheckedAt: number | null
  /** The venue-days (availabilityName keys) this request is subscribed to. */
  watching: string[]
  /** Set while watching waits for the user's platform connection. */
  blocked: Blocked | null
  /** Venue-days whose checks fail right now, with the status reason the failure gives (null: none). */
  failingChecks: Record<string, string | null>
}

/** A new request watches nothing yet. */
export const notWatching = (): WatchState => ({ lastCheckedAt: null, watching: [], blocked: null, failingChecks: {} })

/** Subscribed to these venue-days (again): nothing blocks any more. Failing checks stay until told otherwise. */
export const subscribed = (keys: string[]): Pick<WatchState, 'watching' | 'blocked'> => ({ watching: keys, blocked: null })

/** Left every venue-day: nothing is watched, so nothing fails and nothing blocks. */
export const leftAll = (): Pick<WatchState, 'watching' | 'failingChecks' | 'blocked'> => ({
  watching: [],
  failingChecks: {},
  blocked: null,
})

/** Watching waits (the connection, or the device); the request looks again by itself at `retryAt`. */
export const blockedUntil = (reason: Blocked['reason'], retryAt: number): Blocked => ({ reason, retryAt })

/** A venue-day's checks fail with this status reason (`problem` set), or work again (null). */
export function checkFailing(failing: WatchState['failingChecks'], key: string, problem: { reason: string | null } | null) {
  const failingChecks = { ...failing }
  if (problem) failingChecks[key] = problem.reason
  else delete failingChecks[key]
  return failingChecks
}

/** The latest check heard of: news may arrive out of order. */
export const heardAt = (state: Pick<WatchState, 'lastCheckedAt'>, checkedAt: number) => Math.max(state.lastCheckedAt ?? 0, checkedAt)
