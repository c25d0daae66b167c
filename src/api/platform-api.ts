// JSON endpoints for the platform connection, behind the user's web session (not tokens:
// the user, not an assistant, connects the platform). The settings page uses the same use cases.
import { Hono } from 'hono'
import { z } from 'zod'
import { csrfProtection } from '../auth/csrf'
import { currentUser, sessionUser } from '../auth/session'
import { AppError, errorResponse } from '../errors'
import { connectionStatus, connectPlatform, disconnectPlatform, RISK_NOTICE } from '../executors/connection'
import { depsOf } from '../runtime/deps'

const ConnectBody = z.strictObject({
  email: z.string().min(3).max(254),
  password: z.string().min(1).max(200),
  acknowledge_risk: z.boolean(),
})

export const platformApi = new Hono<{ Bindings: Cloudflare.Env }>()
  .use('*', sessionUser())
  .use('*', csrfProtection({ onRefused: () => errorResponse(new AppError('csrf_failed', 'Reload the page and try again.')) }))
  .use('*', async (c, next) => {
    if (!c.get('user')) throw new AppError('unauthorized', 'Sign in first.')
    return next()
  })
  .onError((err) => errorResponse(err))
  .get('/', async (c) => {
    const status = await connectionStatus(depsOf(c.env, c.req.url), currentUser(c).id)
    return c.json({ ...status, risk_notice: RISK_NOTICE, csrf_token: c.get('csrfToken') })
  })
  .post('/connect', async (c) => {
    const parsed = ConnectBody.safeParse(await c.req.json().catch(() => null))
    if (!parsed.success) throw new AppError('invalid_request', 'Send email, password and acknowledge_risk.')
    const { email, password, acknowledge_risk } = parsed.data
    const status = await connectPlatform(depsOf(c.env, c.req.url), currentUser(c).id, {
      email,
      password,
      acknowledgedRisk: acknowledge_risk,
    })
    return c.json(status)
  })
  .post('/disconnect', async (c) => {
    const deps = depsOf(c.env, c.req.url)
    await disconnectPlatform(deps, currentUser(c).id)
    return c.json(await connectionStatus(deps, currentUser(c).id))
  })
