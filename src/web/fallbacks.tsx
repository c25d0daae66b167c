// Responses the web app gives when a request cannot go on: a refused form, an unknown page.
import type { Context } from 'hono'
import { CsrfRefusedPage, NotFoundPage } from './pages/errors'
import { renderPage, type WebEnv } from './render'

export function csrfRefused(c: Context<WebEnv>): Promise<Response> {
  return renderPage(c, 'Form expired', <CsrfRefusedPage />, 403)
}

/** Anything no route matched: a static file from public/ (through ASSETS), else the not-found page. */
export async function staticOrNotFound(c: Context<WebEnv>): Promise<Response> {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') {
    const asset = await c.env.ASSETS.fetch(c.req.raw)
    // A copy, because the middleware adds security headers and the binding's are immutable.
    if (asset.status !== 404) return new Response(asset.body, asset)
  }
  return renderPage(c, 'Page not found', <NotFoundPage />, 404)
}
