// Local development only (SHOW_OUTBOX = "on"): a "check your inbox" page shows the mail it would
// have sent, so `npm start` needs no mail server. The page finds it through a signed cookie (the
// address and the time, HMAC with CSRF_SECRET, kept to the page's own path for an hour), so only
// the browser that filled in the form sees it. Where mail is really sent, nothing of it is shown.
import type { Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { localMailTo } from '../account-mail/sign-up-mail'
import { equalStrings, hmacSha256Base64Url } from '../auth/bytes'
import { cookieIsSecure, cookiePrefix } from '../auth/session'
import type { WebEnv } from '../html/render'
import { depsOf } from '../runtime/deps'
import type { LocalMail } from './pages/sign-up-sent'

const showsLocalOutbox = (env: Cloudflare.Env) => env.SHOW_OUTBOX === 'on'

/** `purpose` names the cookie and binds its MAC, so one form's cookie never opens another's mail. */
export interface LocalOutboxCookie {
  name: string
  path: string
  purpose: string
}

export async function rememberLocalMail(c: Context<WebEnv>, cookie: LocalOutboxCookie, email: string, now: number): Promise<void> {
  if (!showsLocalOutbox(c.env)) return
  const value = `${now}.${email.trim().toLowerCase()}`
  const mac = await hmacSha256Base64Url(c.env.CSRF_SECRET, `${cookie.purpose}:${value}`)
  setCookie(c, cookie.name, `${mac}.${value}`, {
    prefix: cookiePrefix(c),
    path: cookie.path,
    httpOnly: true,
    sameSite: 'Lax',
    secure: cookieIsSecure(c),
    maxAge: 60 * 60,
  })
}

/** The mails of the remembered form, null where mail is really sent. */
export async function rememberedLocalMail(c: Context<WebEnv>, cookie: LocalOutboxCookie): Promise<LocalMail[] | null> {
  if (!showsLocalOutbox(c.env)) return null
  const stored = getCookie(c, cookie.name, cookiePrefix(c)) ?? ''
  const dot = stored.indexOf('.')
  const [mac, value] = [stored.slice(0, dot), stored.slice(dot + 1)]
  if (dot < 0 || !equalStrings(mac, await hmacSha256Base64Url(c.env.CSRF_SECRET, `${cookie.purpose}:${value}`))) return []
  const sep = value.indexOf('.')
  return localMailTo(depsOf(c.env), value.slice(sep + 1), Number(value.slice(0, sep)))
}
