// What a failed availability check means: how long the venue-day waits, what its requests'
// traces say, and what their status_reason says while it lasts. Blocks and a refused API key are
// told apart from "the platform did not answer" and from 429 (docs/platform.md, "The CDN"):
// both wait much longer, and neither is ever the user's to fix (find sends no user token). Pure.
import type { Failure } from '../platform/api'
import { BLOCK_WORDS } from '../platform/blocks'

const FAILURE_BACKOFF_MS = 2 * 60_000
/** Asking again soon is what keeps a firewall block in place. */
export const BLOCKED_BACKOFF_MS = 20 * 60_000
const OPERATOR_FAULT_BACKOFF_MS = 10 * 60_000

export const BLOCKED_REASON = 'The reservation platform is blocking our checks right now; the next check is in about 20 minutes.'
export const OPERATOR_FAULT_REASON =
  "The service cannot check the platform right now (a problem on the service's side, not with your account); the next check is in about 10 minutes."

export interface FailureReading {
  backoffMs: number
  /** Completes "Could not check <venue> on <day>: …". */
  says: string
  /** The request's status_reason while this lasts; null leaves it alone. */
  statusReason: string | null
  /** A block or a refused key lasts by nature (and waits long); no answer or a 429 often passes. */
  lasting: boolean
}

/** Failed checks in a row before the requests hear of a passing failure (no answer, a 429). */
export const TELL_AFTER_FAILURES = 3

/**
 * Whether the venue-day's requests hear of this failure now. A lasting one at once: the user
 * should know why nothing happens for the next 10-20 minutes. A passing one only once it
 * persists (TELL_AFTER_FAILURES checks in a row), so a platform that fails now and then does not
 * wake every subscriber at each flip, and the next good check tells nobody. Once told, a
 * different failure is told again; the same one is not. `told` is the failure told, if any.
 */
export function tellOfFailure(reading: FailureReading, failures: number, told: string | null): boolean {
  if (told !== null) return told !== reading.says
  return reading.lasting || failures >= TELL_AFTER_FAILURES
}

export function readFailure(failure: Failure): FailureReading {
  switch (failure.kind) {
    case 'rate_limited':
      return { backoffMs: failure.retryAfterMs, says: 'the platform asked us to slow down', statusReason: null, lasting: false }
    case 'blocked':
      return {
        backoffMs: BLOCKED_BACKOFF_MS,
        says: `the platform is blocking checks (${BLOCK_WORDS[failure.signal]})`,
        statusReason: BLOCKED_REASON,
        lasting: true,
      }
    case 'operator_fault':
      return {
        backoffMs: OPERATOR_FAULT_BACKOFF_MS,
        says: "the platform refused the service's access (the operators are told)",
        statusReason: OPERATOR_FAULT_REASON,
        lasting: true,
      }
    case 'reauth':
    case 'not_found':
    case 'unavailable':
      return { backoffMs: FAILURE_BACKOFF_MS, says: 'the platform did not answer', statusReason: null, lasting: false }
  }
}
