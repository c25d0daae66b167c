// The service's REST API as an assistant calls it, timed.
import { randomUUID } from 'node:crypto'
import { z } from 'zod'

export interface Timed {
  status: number
  ms: number
  body: Body
}

/** The fields of the answers the benchmark reads; anything else is kept but not looked at. */
const bodySchema = z
  .object({
    id: z.string(),
    status: z.string(),
    revision: z.number(),
    code: z.string(),
    trace: z.array(z.object({ at: z.string(), message: z.string() })),
    reservations: z.array(z.unknown()),
  })
  .partial()
  .loose()
export type Body = z.infer<typeof bodySchema>

function bodyOf(text: string): Body {
  try {
    const parsed = bodySchema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : {}
  } catch {
    return {}
  }
}

/** The status of a call that got no answer within CALL_TIMEOUT_MS. */
export const UNANSWERED = 0
const CALL_TIMEOUT_MS = 60_000

export class Api {
  /** `operatorToken`: /health with the operators' figures, so the baseline does the same work as a real /health probe. */
  constructor(
    readonly origin: string,
    private readonly operatorToken?: string,
  ) {}

  async call(token: string | null, method: string, path: string, body?: unknown, key?: string): Promise<Timed> {
    const headers: Record<string, string> = {}
    if (token) headers.Authorization = `Bearer ${token}`
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    if (key) headers['Idempotency-Key'] = key
    const started = performance.now()
    try {
      const signal = AbortSignal.timeout(CALL_TIMEOUT_MS)
      const res = await fetch(`${this.origin}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      })
      const text = await res.text()
      return { status: res.status, ms: performance.now() - started, body: bodyOf(text) }
    } catch {
      // No answer in time (an overloaded runtime) or no connection: reported, not fatal.
      return { status: UNANSWERED, ms: performance.now() - started, body: {} }
    }
  }

  health = () => this.call(this.operatorToken ?? null, 'GET', '/health')
  preview = (token: string, spec: Spec) => this.call(token, 'POST', '/api/v1/requests/preview', spec)
  create = (token: string, spec: Spec) => this.call(token, 'POST', '/api/v1/requests', spec, `bench-${randomUUID()}`)
  get = (token: string, id: string) => this.call(token, 'GET', `/api/v1/requests/${id}`)
  list = (token: string) => this.call(token, 'GET', '/api/v1/requests?limit=20')
  stop = (token: string, id: string) => this.call(token, 'POST', `/api/v1/requests/${id}/stop`)

  /** Creates a request; a call left unanswered (a loaded runtime) is sent again with the same Idempotency-Key, so it is made once. */
  async createOk(token: string, spec: Spec): Promise<{ id: string; revision: number }> {
    const key = `bench-${randomUUID()}`
    let res = await this.call(token, 'POST', '/api/v1/requests', spec, key)
    for (let again = 0; res.status === UNANSWERED && again < 3; again++) res = await this.call(token, 'POST', '/api/v1/requests', spec, key)
    if (res.status !== 201 || !res.body.id) throw new Error(`create answered ${res.status}: ${JSON.stringify(res.body)}`)
    return { id: res.body.id, revision: res.body.revision ?? 1 }
  }
}

export interface Spec {
  venue_ids: number[]
  dates: string[]
  earliest_time: string
  latest_time: string
  timezone: string
  party_size: number
  mode: 'alert_only' | 'auto_book'
  expires_at: string
  title?: string
}

/** Today's date in a time zone, plus `days`. */
export function dayIn(zone: string, days: number, now = Date.now()): string {
  const local = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now)
  const date = new Date(`${local}T12:00:00Z`)
  date.setUTCDate(date.getUTCDate() + days)
  return date.toISOString().slice(0, 10)
}

/**
 * A late-evening window (22:30–23:30), after the sandbox's generated tables (17:00–22:00): the
 * only tables it ever sees are the ones the benchmark drops. Expires at the window's start.
 */
export function lateSpec(venueId: number, zone: string, day: string, partySize: number, mode: Spec['mode']): Spec {
  return {
    title: 'bench',
    venue_ids: [venueId],
    dates: [day],
    earliest_time: '22:30',
    latest_time: '23:30',
    timezone: zone,
    party_size: partySize,
    mode,
    expires_at: `${day}T22:30:00${offsetOf(zone, day)}`,
  }
}

/** The zone's UTC offset on that day at 22:30 local, as "+HH:MM". */
function offsetOf(zone: string, day: string): string {
  const probe = new Date(`${day}T12:00:00Z`)
  const name =
    new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
      .formatToParts(probe)
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT'
  const m = /GMT([+-]\d{2}):?(\d{2})?/.exec(name)
  return m ? `${m[1]}:${m[2] ?? '00'}` : '+00:00'
}
