// The consent page's share of the length caps (src/auth/identifier-limits.ts): an authorization request whose client id (or a
// consent form whose handle) is longer than anything the service issues is refused before the
// library looks it up in KV (which throws on keys over 512 bytes).
import type { MiddlewareHandler } from 'hono'
import { clientIdsOfAuthorizeRequest } from '../auth/client-ids'
import { clientIdFits, tokenFits } from '../auth/identifier-limits'
import { renderPage, type WebEnv } from '../html/render'
import { ConsentErrorPage } from './pages/consent'

const TOO_LONG = 'The app sent an identifier that is too long to be real. Go back to the app and connect again.'

export function refuseOverlongConsentIdentifiers(): MiddlewareHandler<WebEnv> {
  return async function refuseOverlongConsentIdentifiers(c, next) {
    let fits = clientIdsOfAuthorizeRequest(new URL(c.req.url)).every(clientIdFits)
    if (fits && c.req.method === 'POST') {
      const handle = (await c.req.parseBody({ all: true }).catch(() => ({}) as Record<string, unknown>)).handle
      fits = typeof handle !== 'string' || tokenFits(handle)
    }
    if (fits) return next()
    c.header('Cache-Control', 'no-store')
    return renderPage(c, 'Connection refused', <ConsentErrorPage message={TOO_LONG} />, 400)
  }
}
