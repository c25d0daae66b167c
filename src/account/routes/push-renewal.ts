// A browser's renewed push subscription, sent by the service worker (public/sw.js) when the
// browser replaced its subscription (`pushsubscriptionchange`). The worker has no page, so no
// form token; the earlier subscription's auth secret is the credential, not a cookie, so there
// is nothing for another site to forge. Mounted before the session and CSRF checks.
import { Hono } from 'hono'
import { renewPush } from '../../alerts/push-settings'
import { AppError } from '../../errors'
import type { WebEnv } from '../../html/render'
import { depsOf } from '../../runtime/deps'
import { pushJsonOf } from './push-json'

export const pushRenewalRoutes = new Hono<WebEnv>()

pushRenewalRoutes.post('/push/renewals', async (c) => {
  const body = await pushJsonOf(c, 'renewal')
  if ('refusal' in body) return body.refusal
  const input = body.input
  try {
    return c.json(await renewPush(depsOf(c.env), input), 200)
  } catch (err) {
    if (err instanceof AppError) return err.toResponse()
    throw err
  }
})
