// Web sessions: a random cookie value, of which only the SHA-256 is stored. HttpOnly,
// SameSite=Lax, Secure except on localhost (plain http there), 14 days, ended after a day unused.
import type { Context, MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { dbOf } from '../db/client'
import { deleteExpiredSessions, deleteSession, deleteSessionsOfUser, findLiveSession, insertSession, touchSession } from '../db/sessions'
import { sha256Hex } from '../lib/random'
import { randomBytes, toBase64Url } from './bytes'

const SESSION_COOKIE = 'tw_session'
const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000
/** A session nobody used for this long ends, whatever its 14 days say. */
const SESSION_IDLE_MS = 24 * 60 * 60 * 1000
/** last_seen_at is written at most this often, so browsing is not a write per page. */
const SEEN_GRANULARITY_MS = 60_000

export interface SessionUser {
  id: string
  email: string
  emailAlerts: boolean
  webhookUrl: string | null
}

export interface ActiveSession {
  idHash: string
  csrfSecret: string
  expiresAt: number
}

declare module 'hono' {
  interface ContextVariableMap {
    /** The signed-in user of a web page request, or null (set by sessionUser()). */
    user: SessionUser | null
    session: ActiveSession | null
  }
}

type WebEnv = { Bindings: Cloudflare.Env }

/** Browsers drop Secure cookies on plain http; only local development runs without TLS. */
export function isLocalHost(url: string): boolean {
  const host = new URL(url).hostname
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]'
}

export function cookieIsSecure(c: Context): boolean {
  return !isLocalHost(c.req.url)
}

/**
 * Secure cookies carry the `__Host-` prefix: the browser then keeps them to this exact host,
 * path /, https only, so a sibling subdomain or a plain-http page cannot plant one. Local http
 * (no Secure) keeps the bare name.
 */
export function cookiePrefix(c: Context): 'host' | undefined {
  return cookieIsSecure(c) ? 'host' : undefined
}

/** Signs the user in: a fresh session id every time, so a planted cookie is never promoted. */
export async function startSession(c: Context<WebEnv>, userId: string, now: number = Date.now()): Promise<ActiveSession> {
  const db = dbOf(c.env.DB)
  await endSession(c)
  await deleteExpiredSessions(db, userId, now, SESSION_IDLE_MS)
  const cookieValue = toBase64Url(randomBytes(32))
  const session: ActiveSession = {
    idHash: await sha256Hex(cookieValue),
    csrfSecret: toBase64Url(randomBytes(32)),
    expiresAt: now + SESSION_TTL_MS,
  }
  await insertSession(db, { ...session, userId, createdAt: now, lastSeenAt: now })
  setCookie(c, SESSION_COOKIE, cookieValue, {
    prefix: cookiePrefix(c),
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: cookieIsSecure(c),
    expires: new Date(session.expiresAt),
  })
  return session
}

/** Signs out: deletes the stored session (if any) and the cookie. */
export async function endSession(c: Context<WebEnv>): Promise<void> {
  const cookieValue = getCookie(c, SESSION_COOKIE, cookiePrefix(c))
  if (!cookieValue) return
  await deleteSession(dbOf(c.env.DB), await sha256Hex(cookieValue))
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: cookieIsSecure(c), prefix: cookiePrefix(c) })
}

/** Signs the user out everywhere: every session of theirs ends, this one included. */
export async function endAllSessions(c: Context<WebEnv>, userId: string): Promise<void> {
  await deleteSessionsOfUser(dbOf(c.env.DB), userId)
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: cookieIsSecure(c), prefix: cookiePrefix(c) })
}

/** Every session of the user ends, and this browser gets a new one (after a password change). */
export async function restartAsOnlySession(c: Context<WebEnv>, userId: string): Promise<void> {
  await deleteSessionsOfUser(dbOf(c.env.DB), userId)
  await startSession(c, userId)
}

/** Puts the signed-in user (or null) and the session in the context. */
export function sessionUser(): MiddlewareHandler<WebEnv> {
  return async function sessionUserMiddleware(c, next) {
    c.set('user', null)
    c.set('session', null)
    const cookieValue = getCookie(c, SESSION_COOKIE, cookiePrefix(c))
    if (cookieValue) {
      const db = dbOf(c.env.DB)
      const now = Date.now()
      const found = await findLiveSession(db, await sha256Hex(cookieValue), now, SESSION_IDLE_MS)
      if (found) {
        const { session, user } = found
        await touchSession(db, session.idHash, now, SEEN_GRANULARITY_MS)
        c.set('session', { idHash: session.idHash, csrfSecret: session.csrfSecret, expiresAt: session.expiresAt })
        c.set('user', { id: user.id, email: user.email, emailAlerts: user.emailAlerts, webhookUrl: user.webhookUrl })
      }
    }
    await next()
  }
}

/** Pages that need a user send everyone else to sign-in, which returns them here afterwards. */
export function requireSession(): MiddlewareHandler<WebEnv> {
  return async function requireSessionMiddleware(c, next) {
    if (c.get('user')) return next()
    // Only a page can be returned to; a form's address answers GET with nothing.
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return c.redirect('/signin', 303)
    const url = new URL(c.req.url)
    return c.redirect(`/signin?next=${encodeURIComponent(url.pathname + url.search)}`, 303)
  }
}

/** The signed-in user of a route behind requireSession(). */
export function currentUser(c: Context): SessionUser {
  const user = c.get('user')
  if (!user) throw new Error('currentUser() used on a route without requireSession()')
  return user
}
