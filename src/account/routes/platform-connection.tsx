// The settings page's platform connection: connect (risk acknowledged; the password is used
// once and never stored or echoed) and disconnect (open requests become revoked).
import { Hono } from 'hono'
import { z } from 'zod'
import { currentUser, requireSession } from '../../auth/session'
import { AppError } from '../../errors'
import { connectPlatform, disconnectPlatform } from '../../executors/connection'
import type { WebEnv } from '../../html/render'
import { depsOf } from '../../runtime/deps'
import { showSettings } from './settings'

const connectForm = z.object({
  platform_email: z.string().trim().min(1, 'Enter the email of your platform account').max(254, 'That email is too long'),
  platform_password: z.string().min(1, 'Enter the password of your platform account').max(200, 'That password is too long'),
  accept_risk: z.literal('on', 'Confirm that you accept the risk to connect'),
})

export const platformConnectionRoutes = new Hono<WebEnv>()
platformConnectionRoutes.use('/settings/platform/*', requireSession())

platformConnectionRoutes.post('/settings/platform/connect', async (c) => {
  const body = await c.req.parseBody()
  const email = typeof body.platform_email === 'string' ? body.platform_email.trim() : ''
  const parsed = connectForm.safeParse(body)
  if (!parsed.success) {
    const errors = z.flattenError(parsed.error).fieldErrors
    const fieldErrors = { email: errors.platform_email?.[0], password: errors.platform_password?.[0], acceptRisk: errors.accept_risk?.[0] }
    return showSettings(c, { connectForm: { email, errors: fieldErrors } }, 422)
  }
  try {
    await connectPlatform(depsOf(c.env, c.req.url), currentUser(c).id, {
      email: parsed.data.platform_email,
      password: parsed.data.platform_password,
      acknowledgedRisk: true,
    })
  } catch (err) {
    if (!(err instanceof AppError)) throw err
    const status = err.status === 503 ? 503 : 422
    return showSettings(c, { connectForm: { email, errors: {} }, notice: { kind: 'error', text: err.message } }, status)
  }
  return c.redirect('/settings?done=connected', 303)
})

platformConnectionRoutes.post('/settings/platform/disconnect', async (c) => {
  await disconnectPlatform(depsOf(c.env, c.req.url), currentUser(c).id)
  return c.redirect('/settings?done=disconnected', 303)
})
