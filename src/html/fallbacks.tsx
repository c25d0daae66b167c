// Responses the web app gives when a request cannot go on: a refused form, an unknown page.
// Both are error pages (errorPage), like any error a route throws.
import type { Context } from 'hono'
import { AppError } from '../errors'
import { errorPage, pageNotFound } from './error-page'
import type { WebEnv } from './render'

export function csrfRefused(c: Context<WebEnv>): Promise<Response> {
  return errorPage(c, new AppError('csrf_failed', 'This form has expired. Reload the page and try again.'))
}

/** Anything no route matched: a static file from public/ (through ASSETS), else the not-found page. */
export async function staticOrNotFound(c: Context<WebEnv>): Promise<Response> {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') {
    const asset = await c.env.ASSETS.fetch(c.req.raw)
    // A copy, because the middleware adds security headers and the binding's are immutable.
    if (asset.status !== 404) return new Response(asset.body, asset)
  }
  return errorPage(c, pageNotFound())
}
