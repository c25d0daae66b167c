// Who uses the service during the benchmark. Bulk users (hundreds: the 20-open-requests limit
// is per user) are written straight into the local D1 before the service starts, like
// `npm run dev:token` does: the user, a personal access token's hash, and the platform
// connection their connect step would store (the sandbox's login token, sealed with the
// service's key by the service's own code). Web users go through the pages as a person would
// (sign up, sign in, connect the platform, create a token, approve requests): only they can
// approve auto_book requests.
import { createHash, randomBytes } from 'node:crypto'
import { seal } from '../../src/lib/secret-box'
import type { Platform } from '../../src/platform/api'
import { type LocalD1, literal } from './d1'
import { mapLimit } from './stats'

const DAY_MS = 24 * 60 * 60 * 1000
const SCOPES = JSON.stringify(['restaurants:read', 'requests:read', 'requests:write', 'reservations:read'])
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

export interface BenchUser {
  userId: string
  token: string
}

function patToken(): string {
  const bytes = randomBytes(43)
  return `spt_${Array.from(bytes, (b) => BASE62[b % 62]).join('')}`
}

export async function insertBulkUsers(
  d1: LocalD1,
  sqlFile: string,
  count: number,
  platform: Platform,
  tokenKey: string,
): Promise<BenchUser[]> {
  const now = Date.now()
  const users = Array.from({ length: count }, (_, i) => ({ userId: `usr_bench${i}`, token: patToken() }))
  const statements = await mapLimit(users, 8, async ({ userId, token }, i) => {
    const hash = createHash('sha256').update(token).digest('hex')
    const login = await patiently(() => platform.login(`bench${i}@sandbox.example`, 'bench'))
    if (login.kind !== 'ok') throw new Error(`the sandbox refused the login of bench${i}: ${login.kind}`)
    const sealed = await seal(tokenKey, login.value.authToken, userId)
    return [
      `INSERT INTO users (id, email, email_alerts, alert_gap_minutes, daily_alert_cap, created_at) VALUES (${literal(userId)}, 'bench${i}@bench.example', 0, 0, 500, ${now});`,
      `INSERT INTO access_tokens (id, user_id, name, token_hash, hint, scopes, created_at, expires_at) VALUES ('pat_bench${i}', ${literal(userId)}, 'bench', '${hash}', '${token.slice(0, 8)}…', '${SCOPES}', ${now}, ${now + 90 * DAY_MS});`,
      `INSERT INTO platform_connections (user_id, token_ciphertext, token_iv, display_name, payment_method_id, state, connected_at, checked_at) VALUES (${literal(userId)}, '${sealed.ciphertext}', '${sealed.iv}', ${literal(login.value.displayName)}, ${login.value.paymentMethodId ?? 'NULL'}, 'ok', ${now}, ${now});`,
    ].join('\n')
  })
  d1.runFile(sqlFile, statements.join('\n'))
  return users
}

/**
 * A call the local `wrangler dev` may fail to answer on a loaded machine (a connection it closed,
 * no answer in time), made again a few times: logins and page loads, which change nothing twice.
 */
export async function patiently<T extends { kind: string }>(call: () => Promise<T>, attempts = 5): Promise<T> {
  let got = await call()
  for (let i = 1; got.kind === 'unavailable' && i < attempts; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1_000 * i))
    got = await call()
  }
  return got
}

/** fetch, made again when the connection failed before an answer (a GET only: it changes nothing). */
async function fetchGet(url: string, init: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init)
    } catch (err) {
      if (init.method !== 'GET' || attempt >= 5) throw err
      await new Promise((resolve) => setTimeout(resolve, 1_000 * attempt))
    }
  }
}

/** A browser without the browser: cookies kept, redirects not followed, forms posted. */
class WebSession {
  #cookies = new Map<string, string>()
  constructor(private readonly origin: string) {}

  async request(method: 'GET' | 'POST', path: string, form?: [string, string][]): Promise<{ status: number; html: string }> {
    const headers: Record<string, string> = { Cookie: [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ') }
    if (form) headers['Content-Type'] = 'application/x-www-form-urlencoded'
    const res = await fetchGet(`${this.origin}${path}`, {
      method,
      headers,
      body: form ? new URLSearchParams(form) : undefined,
      redirect: 'manual',
    })
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';')
      const at = pair?.indexOf('=') ?? -1
      if (pair && at > 0) this.#cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim())
    }
    return { status: res.status, html: await res.text() }
  }

  /** Posts a form the way the page `from` renders it, with that page's CSRF token. */
  async post(from: string, path: string, fields: [string, string][], expected: number): Promise<string> {
    const page = await this.request('GET', from)
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.html)?.[1]
    if (!csrf) throw new Error(`no CSRF token on ${from}`)
    const res = await this.request('POST', path, [...fields, ['_csrf', csrf]])
    if (res.status !== expected) throw new Error(`POST ${path} answered ${res.status}, not ${expected}`)
    return res.html
  }
}

export interface WebUser extends BenchUser {
  approve(requestId: string, revision: number): Promise<void>
  /** Pairs a device in Settings (the code the page shows): its credential, for the device program. */
  pairDevice(name: string): Promise<string>
  /** Chooses where booking happens (Settings → Paired devices). */
  bookFrom(execution: 'cloud' | 'user_device'): Promise<void>
}

export async function newWebUser(origin: string, label: string, platformEmail: string): Promise<WebUser> {
  const web = new WebSession(origin)
  const email = `${label}@bench.example`
  const password = 'bench password, not a secret'
  await web.post(
    '/signup',
    '/signup',
    [
      ['email', email],
      ['password', password],
    ],
    303,
  )
  // Sign-up mails a confirmation link, which the "check your inbox" page shows in local
  // development (the bench's service runs with LOCAL_DEVELOPMENT on); following it and pressing
  // its button creates the account and signs in. The mail is written in the background: wait.
  let link: string | undefined
  for (const deadline = Date.now() + 20_000; !link; ) {
    const sent = await web.request('GET', '/signup/sent')
    const href = /href="((?:https?:\/\/[^"/]+)?\/signup\/confirm\?[^"]+)"/.exec(sent.html)?.[1]?.replaceAll('&amp;', '&')
    link = href ? new URL(href, origin).pathname + new URL(href, origin).search : undefined
    if (!link && Date.now() > deadline) throw new Error(`no sign-up confirmation link for ${email}`)
    if (!link) await new Promise((resolve) => setTimeout(resolve, 250))
  }
  const token = new URL(link, origin).searchParams.get('t') ?? ''
  await web.post(link, '/signup/confirm', [['t', token]], 303)
  const connect: [string, string][] = [
    ['platform_email', platformEmail],
    ['platform_password', 'sandbox'],
    ['accept_risk', 'on'],
  ]
  await web.post('/settings', '/settings/platform/connect', connect, 303)
  const scopes = ['restaurants:read', 'requests:read', 'requests:write', 'reservations:read'].map((s): [string, string] => ['scopes', s])
  const page = await web.post('/assistants', '/assistants/tokens', [['name', 'bench'], ...scopes], 201)
  const pat = /spt_[0-9A-Za-z]{20,}/.exec(page)?.[0]
  if (!pat) throw new Error('the assistants page showed no new token')
  return {
    userId: label,
    token: pat,
    approve: async (requestId, revision) => {
      const path = `/requests/${encodeURIComponent(requestId)}/approve`
      await web.post(`${path}?revision=${revision}`, path, [['revision', String(revision)]], 303)
    },
    pairDevice: async (name) => {
      const page = await web.post('/settings', '/settings/devices/pair', [], 200)
      const code = /data-testid="user-code"[^>]*>\s*([A-Z]{4}-[A-Z]{4})/.exec(page)?.[1]
      if (!code) throw new Error('the pairing page showed no code')
      const res = await fetch(`${origin}/device/v1/pair`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ code, name }),
      })
      const body = (await res.json()) as { credential?: string }
      if (res.status !== 201 || !body.credential) throw new Error(`pairing answered ${res.status}`)
      return body.credential
    },
    bookFrom: async (execution) => {
      await web.post('/settings', '/settings/execution', [['execution', execution]], 303)
    },
  }
}
