// A small cookie-keeping client for the pages, through SELF: it follows no redirects by
// itself, so tests can see each Set-Cookie and Location.
import { env, SELF } from 'cloudflare:test'

export type Form = Record<string, string | string[]>

/** An address of its own (the RFC 2544 benchmarking range) for each client, as Cloudflare would report it. */
function testAddress(): string {
  const [a, b] = crypto.getRandomValues(new Uint8Array(2))
  return `198.18.${a}.${b}`
}

export class WebClient {
  readonly cookies = new Map<string, string>()

  /**
   * `address` is sent as CF-Connecting-IP: each client is its own place for the throttles.
   * `fetcher` is the worker (SELF), or the worker called with a changed env.
   */
  constructor(
    readonly origin = 'http://localhost',
    readonly address = testAddress(),
    readonly fetcher: (request: Request) => Promise<Response> = (request) => SELF.fetch(request),
  ) {}

  async get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.send(path, { method: 'GET', headers })
  }

  /** Posts a form as a browser would; `_csrf` is sent only if the form includes it. */
  async post(path: string, form: Form, headers: Record<string, string> = {}): Promise<Response> {
    const body = new URLSearchParams()
    for (const [key, value] of Object.entries(form)) {
      for (const v of Array.isArray(value) ? value : [value]) body.append(key, v)
    }
    return this.send(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: body.toString(),
    })
  }

  /** Loads a page and returns the CSRF token its forms carry. */
  async csrfFrom(path: string): Promise<string> {
    const html = await (await this.get(path)).text()
    const match = /name="_csrf" value="([^"]+)"/.exec(html)
    if (!match?.[1]) throw new Error(`no CSRF field on ${path}`)
    return match[1]
  }

  /**
   * Creates an account as a person would: the form (which answers "check your
   * inbox" for every address), then the confirmation link from the mail in the D1 outbox, whose
   * page creates the account. Returns the form's answer. Then forgets the session, so the tests
   * that sign in (or stay signed out) start signed out. An address that already has an account
   * gets no link: only the form is sent.
   */
  async signUp(email: string, password: string): Promise<Response> {
    const since = Date.now()
    const existed = await env.DB.prepare('select 1 from users where email = ?').bind(email.trim().toLowerCase()).first()
    const res = await this.post('/signup', { email, password, _csrf: await this.csrfFrom('/signup') })
    if (res.status === 303 && !existed) await this.confirmSignUp(email, since)
    this.cookies.delete('tw_session')
    this.cookies.delete('__Host-tw_session')
    return res
  }

  /** Follows the confirmation link mailed to `email` after `since` (the mail is written in the background). */
  async confirmSignUp(email: string, since: number): Promise<Response> {
    const link = await confirmationLink(email, since)
    const url = new URL(link)
    const page = await (await this.get(url.pathname + url.search)).text()
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? ''
    const token = /name="t" value="([^"]+)"/.exec(page)?.[1] ?? ''
    const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1]?.replaceAll('&amp;', '&') ?? '/signup/confirm'
    return this.post(action, { t: token, _csrf: csrf })
  }

  async signIn(email: string, password: string, next?: string): Promise<Response> {
    const path = next ? `/signin?next=${encodeURIComponent(next)}` : '/signin'
    return this.post(path, { email, password, _csrf: await this.csrfFrom('/signin') })
  }

  /** Signs up and in with a fresh email; returns the email. */
  async newUser(password = 'correct horse battery'): Promise<string> {
    const email = `user-${crypto.randomUUID()}@example.com`
    await this.signUp(email, password)
    const res = await this.signIn(email, password)
    if (res.status !== 303) throw new Error(`sign-in failed with ${res.status}`)
    return email
  }

  /** Creates a personal access token on the assistants page and returns it (seen once). */
  async createToken(
    name = 'Test assistant',
    scopes = ['restaurants:read', 'requests:read', 'requests:write', 'reservations:read'],
  ): Promise<string> {
    const res = await this.post('/assistants/tokens', { name, scopes, _csrf: await this.csrfFrom('/assistants') })
    const token = /spt_[0-9A-Za-z]+/.exec(await res.text())?.[0]
    if (!token) throw new Error(`no token on the page (status ${res.status})`)
    return token
  }

  private async send(path: string, init: RequestInit & { headers: Record<string, string> }): Promise<Response> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const headers = { 'CF-Connecting-IP': this.address, ...init.headers, ...(cookie ? { Cookie: cookie } : {}) }
    const res = await this.fetcher(new Request(`${this.origin}${path}`, { ...init, headers, redirect: 'manual' }))
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const eq = pair?.indexOf('=') ?? -1
      if (!pair || eq < 0) continue
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return res
  }
}

/** The Set-Cookie line for one cookie name. */
export function setCookieLine(res: Response, name: string): string | undefined {
  return res.headers.getSetCookie().find((line) => line.startsWith(`${name}=`))
}

/** The confirmation link in the newest sign-up mail to `email` since `since`; waits up to 5 s for it. */
export async function confirmationLink(email: string, since: number): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const row = await env.DB.prepare(
      "select body from outbox where to_address = ? and created_at >= ? and subject = 'Confirm your Tablewatch account' order by id desc limit 1",
    )
      .bind(email.trim().toLowerCase(), since)
      .first<{ body: string }>()
    const link = row ? /https?:\/\/\S+/.exec(row.body)?.[0] : undefined
    if (link) return link
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`no confirmation mail to ${email}`)
}
