// The settings page's Web Push routes. Signed in, CSRF checked (csrfProtection in
// web/app.ts: the form field, or the x-csrf-token header public/push.js sends with its JSON), and
// every one acts on the session's user only: another user's subscription id is "not found".
import { Hono } from 'hono'
import { sendTestPush, turnOffPush, turnOnPush } from '../../alerts/push-settings'
import { currentUser, requireSession } from '../../auth/session'
import { AppError } from '../../errors'
import type { WebEnv } from '../../html/render'
import { depsOf } from '../../runtime/deps'
import { pushJsonOf } from './push-json'
import { showSettings } from './settings'

export const pushRoutes = new Hono<WebEnv>()
pushRoutes.use('/settings/push/*', requireSession())

// The browser's subscription, as JSON from public/push.js; answered in the contract's error format.
pushRoutes.post('/settings/push/subscriptions', async (c) => {
  const body = await pushJsonOf(c, 'subscription')
  if ('refusal' in body) return body.refusal
  const input = body.input
  try {
    const { id } = await turnOnPush(depsOf(c.env), currentUser(c).id, input, c.req.header('user-agent'))
    return c.json({ id }, 201)
  } catch (err) {
    if (err instanceof AppError) return err.toResponse()
    throw err
  }
})

pushRoutes.post('/settings/push/test', async (c) => {
  const result = await sendTestPush(depsOf(c.env), currentUser(c).id)
  if (result.ok) {
    const { delivered, dropped, failed } = result.report
    const text =
      failed > 0
        ? `The test reached ${delivered} of ${delivered + failed} browsers; see below which did not.`
        : `Test push sent to ${delivered} ${delivered === 1 ? 'browser' : 'browsers'}.${dropped > 0 ? ` ${dropped} no longer had push on and ${dropped === 1 ? 'was' : 'were'} removed.` : ''}`
    return showSettings(c, { notice: { kind: failed > 0 ? 'error' : 'success', text } })
  }
  switch (result.reason) {
    case 'too_many':
      return showSettings(c, { notice: { kind: 'error', text: 'You sent many test pushes in the last hour. Try again later.' } }, 429)
    case 'none':
      return showSettings(c, { notice: { kind: 'error', text: 'Turn push on in a browser first.' } }, 422)
    case 'not_set_up':
      return showSettings(c, { notice: { kind: 'error', text: 'Push is not set up on this deployment.' } }, 422)
  }
})

pushRoutes.post('/settings/push/:id/remove', async (c) => {
  try {
    await turnOffPush(depsOf(c.env), currentUser(c).id, c.req.param('id'))
  } catch (err) {
    if (!(err instanceof AppError)) throw err
    return showSettings(c, { notice: { kind: 'error', text: err.message } }, 404)
  }
  return c.redirect('/settings?done=push_removed', 303)
})
