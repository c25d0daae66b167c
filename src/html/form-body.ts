// A form body that cannot be parsed (a broken multipart boundary, say) is the sender's mistake:
// it gets the error page (422) before any route reads it, instead of a 500 from inside one.
import type { MiddlewareHandler } from 'hono'
import { AppError } from '../errors'
import { errorPage } from './error-page'
import type { WebEnv } from './render'

const UNREADABLE = 'This form could not be read. Go back, reload the page and try again.'
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data']

export function readableForms(): MiddlewareHandler<WebEnv> {
  return async function readableFormsMiddleware(c, next) {
    const type = c.req.header('content-type') ?? ''
    if (c.req.method !== 'POST' || !FORM_TYPES.some((t) => type.startsWith(t))) return next()
    // Hono keeps the parsed form, so the routes' own parseBody() reads it from here.
    const readable = await c.req.parseBody().then(
      () => true,
      () => false,
    )
    if (!readable) return errorPage(c, new AppError('invalid_request', UNREADABLE))
    return next()
  }
}
