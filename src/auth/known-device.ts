// Known devices. The per-email sign-in budget (10 a minute from anywhere) could
// be spent by anyone who knows the email, from 30 addresses, around the clock, which kept the owner
// out. A browser that once signed in to the account, confirmed its sign-up or set a new password
// through a reset link (those two prove they read the account's mail) gets a signed
// cookie naming it a known device of that email; its attempts count against a budget of their own
// (the same 10 a minute), so guesses from elsewhere cannot lock it out. The per-address and per-(email, address) limits stay.
// The cookie holds a random id and an HMAC over (id, email), keyed by CSRF_SECRET with its own
// message prefix; it grants nothing but a separate throttle budget.
import type { Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { normalizeEmail } from '../db/users'
import { equalStrings, hmacSha256Base64Url, randomBytes, toBase64Url } from './bytes'
import { cookieIsSecure, cookiePrefix } from './session'

const KNOWN_DEVICE_COOKIE = 'tw_device'
const LIFETIME_MS = 365 * 24 * 60 * 60 * 1000

type Env = { Bindings: Cloudflare.Env }

function mac(env: Cloudflare.Env, id: string, email: string): Promise<string> {
  return hmacSha256Base64Url(env.CSRF_SECRET, `known-device:${id}:${normalizeEmail(email)}`)
}

/** The id of this browser as a known device of `email`, or null. */
export async function knownDeviceOf(c: Context<Env>, email: string): Promise<string | null> {
  const value = getCookie(c, KNOWN_DEVICE_COOKIE, cookiePrefix(c)) ?? ''
  const [id, signature] = value.split('.')
  if (!id || !signature || id.length > 64) return null
  return equalStrings(signature, await mac(c.env, id, email)) ? id : null
}

/** After a sign-in, a confirmed sign-up or a reset: this browser is a known device of `email` (for a year). */
export async function rememberDevice(c: Context<Env>, email: string): Promise<void> {
  const id = (await knownDeviceOf(c, email)) ?? toBase64Url(randomBytes(16))
  setCookie(c, KNOWN_DEVICE_COOKIE, `${id}.${await mac(c.env, id, email)}`, {
    prefix: cookiePrefix(c),
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: cookieIsSecure(c),
    expires: new Date(Date.now() + LIFETIME_MS),
  })
}
