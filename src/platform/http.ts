// One HTTP exchange with the platform: headers, per-call timeout, and what came back. Reads get
// bounded retries here; writes (book) get exactly one attempt, decided by the caller.
import type { z } from 'zod'
import type { CdnCookies, Outcome, PlatformProblem } from './api'
import { type BlockSignal, blockSignalOf } from './blocks'
import { cookieHeader, keepCdnCookies } from './cdn-cookies'
import { saysSessionInvalid } from './session'
import { userAgentFor } from './user-agent'
import { webAppHeaders, webOriginFor } from './web-origin'

export interface Fetcher {
  fetch(request: Request): Promise<Response>
}

export interface TransportOptions {
  fetcher: Fetcher
  /** e.g. https://api.resy.com (no trailing slash needed). */
  baseUrl: string
  /** The platform's public API key (a configuration secret). */
  apiKey: string
  /** Per attempt, including reading the body. */
  timeoutMs: number
  /**
   * Per attempt of the calls public clients saw take about 12 s at drops (details and book;
   * docs/platform.md, "Booking": a 3 s cap on /3/book lost a booking the platform committed,
   * [idx 57928723907]). Default: the larger of timeoutMs and SLOW_CALL_TIMEOUT_MS.
   */
  slowCallTimeoutMs?: number
  /** Waits before each retry of a read; its length is the number of retries. Default [200, 600]. */
  retryDelaysMs?: readonly number[]
  /** A browser User-Agent (see user-agent.ts); anything else is replaced by the default. */
  userAgent?: string
  /** The web origin sent as Origin and Referer (see web-origin.ts); anything else is replaced by the default. */
  webOrigin?: string
  /** Told of every block and every refused API key (after the stable log line); failures ignored. */
  onProblem?: (problem: PlatformProblem) => Promise<void> | void
}

export interface CallSpec {
  /** OPTIONS: the operator's probe asks the CORS preflight a browser sends before a sign-in. */
  method: 'GET' | 'POST' | 'OPTIONS'
  path: string
  query?: Record<string, string>
  json?: unknown
  form?: Record<string, string>
  /** The user's platform token, sent in both user-token headers. */
  authToken?: string
  /** Logging in or refreshing: a 419 there is about the user's credentials, not the API key. */
  signsIn?: boolean
  /** Extra headers (Accept-Encoding for the calendar). */
  headers?: Record<string, string>
  /**
   * The session's CDN cookies (cdn-cookies.ts): sent as a browser sends them, and updated in
   * place from the answer's Set-Cookie, as a browser's jar is.
   */
  cookies?: CdnCookies
  /** Cookies of this call only, sent before the jar's (the refresh token). */
  callCookies?: Record<string, string>
  /** A call public clients saw take long (details, book): timed with slowCallTimeoutMs. */
  slow?: boolean
}

export type Exchange =
  | {
      kind: 'answer'
      status: number
      body: unknown
      headers: Headers
      retryAfterMs: number
      /** Set when a firewall or CDN answered instead of the API. */
      block: BlockSignal | null
    }
  | { kind: 'timeout' }
  | { kind: 'network'; detail: string }

const DEFAULT_RETRY_AFTER_MS = 2000
/** Public clients needed about 12 s for details and book at drops ([idx 57928723907]): room above that. */
const SLOW_CALL_TIMEOUT_MS = 15_000

export function createTransport(options: TransportOptions) {
  const base = options.baseUrl.replace(/\/+$/, '')
  const retryDelays = options.retryDelaysMs ?? [200, 600]
  const userAgent = userAgentFor(options.userAgent)
  // The same on every call, book included: the web app's headers (web-origin.ts).
  const browserHeaders = { ...webAppHeaders(webOriginFor(options.webOrigin)), 'User-Agent': userAgent }

  const slowTimeout = options.slowCallTimeoutMs ?? Math.max(options.timeoutMs, SLOW_CALL_TIMEOUT_MS)
  const timeoutOf = (spec: CallSpec) => (spec.slow ? slowTimeout : options.timeoutMs)

  async function exchange(spec: CallSpec): Promise<Exchange> {
    const url = new URL(base + spec.path)
    for (const [k, v] of Object.entries(spec.query ?? {})) url.searchParams.set(k, v)
    const headers = new Headers({ Authorization: `ResyAPI api_key="${options.apiKey}"`, ...browserHeaders })
    for (const [k, v] of Object.entries(spec.headers ?? {})) headers.set(k, v)
    const cookies = cookieHeader(spec.cookies, spec.callCookies)
    if (cookies !== null) headers.set('Cookie', cookies)
    if (spec.authToken !== undefined) {
      headers.set('X-Resy-Auth-Token', spec.authToken)
      headers.set('X-Resy-Universal-Auth', spec.authToken)
    }
    let body: string | undefined
    if (spec.json !== undefined) {
      headers.set('Content-Type', 'application/json')
      body = JSON.stringify(spec.json)
    } else if (spec.form !== undefined) {
      headers.set('Content-Type', 'application/x-www-form-urlencoded')
      body = new URLSearchParams(spec.form).toString()
    }
    const abort = new AbortController()
    let timer: ReturnType<typeof setTimeout> | undefined
    // Racing the timer (not only aborting) bounds the wait even if a fetcher ignores the signal.
    const timedOut = new Promise<Exchange>((resolve) => {
      timer = setTimeout(() => {
        abort.abort()
        resolve({ kind: 'timeout' })
      }, timeoutOf(spec))
    })
    const attempt = (async (): Promise<Exchange> => {
      try {
        const request = new Request(url, { method: spec.method, headers, body, signal: abort.signal })
        const res = await options.fetcher.fetch(request)
        const text = await res.text()
        // Kept whatever the answer is: the CDN sets its cookies on blocks and errors too.
        if (spec.cookies) keepCdnCookies(spec.cookies, res.headers.getSetCookie())
        const block = blockSignalOf(res.status, res.headers, text)
        return {
          kind: 'answer',
          status: res.status,
          body: parseJson(text),
          headers: res.headers,
          retryAfterMs: retryAfterOf(res.headers),
          block,
        }
      } catch (err) {
        if (abort.signal.aborted) return { kind: 'timeout' }
        return { kind: 'network', detail: err instanceof Error ? err.message : 'fetch failed' }
      }
    })()
    let got: Exchange
    try {
      got = await Promise.race([attempt, timedOut])
    } finally {
      if (timer !== undefined) clearTimeout(timer)
    }
    const problem = got.kind === 'answer' ? problemOf(spec, got) : null
    if (problem) await report(problem)
    return got
  }

  /** A stable log line operators can count (no token, cookie or query string in it), then the observer. */
  async function report(problem: PlatformProblem): Promise<void> {
    console.warn(`platform.${problem.kind} ${JSON.stringify(problem)}`)
    try {
      await options.onProblem?.(problem)
    } catch {
      // Recording a problem must never turn a call into a failure of its own.
    }
  }

  /**
   * A read: 2xx parsed by `schema`, 5xx/timeouts retried with backoff, everything else mapped. A
   * block is never retried: asking again at once is what keeps a block in place.
   */
  async function read<S extends z.ZodType>(spec: CallSpec, schema: S): Promise<Outcome<z.output<S>>> {
    let last = 'no answer'
    for (let attempt = 0; ; attempt++) {
      const got = await exchange(spec)
      if (got.kind === 'answer' && got.block) return { kind: 'blocked', signal: got.block }
      if (got.kind === 'answer' && got.status < 500) return readAnswer(got, spec, schema)
      // An expired session is sometimes a 500 that says so: as final as a 419, not retried.
      if (got.kind === 'answer' && spec.authToken !== undefined && saysSessionInvalid(got.body)) return { kind: 'reauth' }
      last = got.kind === 'answer' ? `HTTP ${got.status}` : got.kind === 'timeout' ? 'timeout' : got.detail
      const delay = retryDelays[attempt]
      if (delay === undefined) return { kind: 'unavailable', detail: `${spec.path}: ${last}` }
      await sleep(delay)
    }
  }

  return { exchange, read }
}

type Answer = Extract<Exchange, { kind: 'answer' }>

const isUnauthorized = (status: number) => status === 401 || status === 419

/** A call that sends only the API key (find, search, venue, config): a 419 there is about the key. */
const keyOnly = (spec: CallSpec) => spec.authToken === undefined && !spec.signsIn

function problemOf(spec: CallSpec, got: Answer): PlatformProblem | null {
  if (got.block) return { kind: 'blocked', signal: got.block, path: spec.path }
  if (isUnauthorized(got.status) && keyOnly(spec)) return { kind: 'operator_fault', status: got.status, path: spec.path }
  return null
}

function readAnswer<S extends z.ZodType>(got: Answer, spec: CallSpec, schema: S): Outcome<z.output<S>> {
  const { status } = got
  if (isUnauthorized(status)) {
    return keyOnly(spec)
      ? { kind: 'operator_fault', detail: `${spec.path}: the platform refused the API key (HTTP ${status})` }
      : { kind: 'reauth' }
  }
  if (status === 404) return { kind: 'not_found' }
  if (status === 429) return { kind: 'rate_limited', retryAfterMs: got.retryAfterMs }
  if (status < 200 || status >= 300) return { kind: 'unavailable', detail: `HTTP ${status}` }
  const parsed = schema.safeParse(got.body)
  if (!parsed.success) return { kind: 'unavailable', detail: `unexpected answer: ${describeIssue(parsed.error)}` }
  return { kind: 'ok', value: parsed.data }
}

export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0]
  return issue ? `${issue.path.join('.') || '(root)'} ${issue.message}` : 'invalid'
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

function retryAfterOf(headers: Headers): number {
  const value = headers.get('Retry-After')
  if (!value) return DEFAULT_RETRY_AFTER_MS
  const seconds = Number(value)
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000)
  const at = Date.parse(value)
  return Number.isNaN(at) ? DEFAULT_RETRY_AFTER_MS : Math.max(0, at - Date.now())
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
