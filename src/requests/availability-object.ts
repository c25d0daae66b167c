// One Durable Object per (venue, day, party size): every request watching that venue-day
// asks it, and it asks the platform at most once per freshness window. Availability needs
// no user token. The answer is kept in memory only: an idle poll writes nothing.
import { DurableObject } from 'cloudflare:workers'
import type { FindQuery, Outcome, Slot } from '../platform/api'
import { servicePlatform } from './platform-health'

interface Answer {
  at: number
  outcome: Outcome<Slot[]>
}

export function availabilityName(query: FindQuery): string {
  return `${query.venueId}:${query.day}:${query.partySize}`
}

export class AvailabilityObject extends DurableObject<Cloudflare.Env> {
  #answer: Answer | null = null
  #inFlight: Promise<Answer> | null = null
  #platform = servicePlatform(this.env)

  /** Open slots, at most `maxAgeMs` old. Concurrent callers share one platform call. */
  async slots(query: FindQuery, maxAgeMs: number): Promise<Outcome<Slot[]>> {
    const now = Date.now()
    const answer = this.#answer
    if (answer && now - answer.at < Math.max(maxAgeMs, holdFor(answer))) return answer.outcome
    this.#inFlight ??= this.#platform
      .findSlots(query)
      .then((outcome) => (this.#answer = { at: Date.now(), outcome }))
      .finally(() => (this.#inFlight = null))
    return (await this.#inFlight).outcome
  }
}

/** A block answer is kept this long for every caller: asking again soon keeps a block in place. */
export const BLOCK_HOLD_MS = 10 * 60_000
/** A refused API key does not fix itself quickly either. */
export const OPERATOR_FAULT_HOLD_MS = 5 * 60_000

/** A 429 answer is kept for as long as the platform asked us to wait, for every caller; blocks and refused keys longer. */
function holdFor(answer: Answer): number {
  switch (answer.outcome.kind) {
    case 'rate_limited':
      return answer.outcome.retryAfterMs
    case 'blocked':
      return BLOCK_HOLD_MS
    case 'operator_fault':
      return OPERATOR_FAULT_HOLD_MS
    default:
      return 0
  }
}
