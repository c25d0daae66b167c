// A browser's renewed push subscription, sent by the service worker (public/sw.js) when the
// browser replaced its subscription (`pushsubscriptionchange`). The worker has no page, so no
// form token; the earlier subscription's auth secret is the credential, not a cookie, so there
// is nothing for another site to forge. Mounted before the session and CSRF checks.
import { Hono } from 'hono'
import { renewPush } from '../../alerts/push-settings'
import { AppError } from '../../errors'
import type { WebEnv } from '../../html/render'
import { depsOf } from '../../runtime/deps'

/** Two subscriptions are under a kilobyte; anything far larger is not a renewal. */
const MAX_RENEWAL_BYTES = 8_192

export const pushRenewalRoutes = new Hono<WebEnv>()

pushRenewalRoutes.post('/push/renewals', async (c) => {
  if (!(c.req.header('content-type') ?? '').startsWith('application/json')) {
    return new AppError('unsupported_media_type', 'Send the renewal as application/json.').toResponse()
  }
  const text = await c.req.text()
  if (text.length > MAX_RENEWAL_BYTES) return new AppError('payload_too_large', 'That is too large for a push subscription.').toResponse()
  let input: unknown
  try {
    input = JSON.parse(text)
  } catch {
    return new AppError('invalid_request', 'The body is not JSON.').toResponse()
  }
  try {
    return c.json(await renewPush(depsOf(c.env, c.req.url), input), 200)
  } catch (err) {
    if (err instanceof AppError) return err.toResponse()
    throw err
  }
})
