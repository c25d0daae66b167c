// One token bucket per subject (a venue, a user account): the hard caps of limits.ts. The
// bucket is kept in memory only, so taking costs no storage write. A full refill takes at most
// 12 s; Cloudflare evicts an idle object after 70–140 s, so forgetting the bucket then lets
// nothing extra through (local workerd evicts after about 10 s: up to 2 calls early). A restart
// of the runtime refills every bucket once.
import { DurableObject } from 'cloudflare:workers'
import { type Bucket, type Limit, take } from './limits'
import { traceCall } from './poll-trace'

export class LimiterObject extends DurableObject<Cloudflare.Env> {
  #bucket: Bucket | null = null

  /** 0 when `cost` calls may go now, else how many ms to wait before asking again. */
  take(limit: Limit, cost: number): number {
    const started = Date.now()
    const result = take(this.#bucket, limit, cost, started)
    this.#bucket = result.bucket
    traceCall(this.env, 'limiter', 'take', started)
    return result.waitMs
  }
}
