// Sign-in and security: the password change (every session ends; this browser gets a new one)
// and "sign out everywhere". Behind the settings routes' requireSession().
import { type Context, Hono } from 'hono'
import { z } from 'zod'
import { revokeAccess, ticked } from '../../access/revoke-access'
import { PASSWORD_MIN_LENGTH } from '../../auth/password'
import { changePassword } from '../../auth/password-change'
import { currentUser, endAllSessions, restartAsOnlySession } from '../../auth/session'
import { clientAddress, tryAgainIn } from '../../html/client-address'
import { renderPage, type WebEnv } from '../../html/render'
import { depsOf } from '../../runtime/deps'
import { SecurityPage, type SecurityPageProps } from '../pages/security'

const passwordForm = z.object({
  current_password: z.string('Enter your current password').min(1, 'Enter your current password').max(1024, 'That password is too long'),
  new_password: z
    .string('Choose a new password')
    .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(1024, 'Use at most 1024 characters'),
})

const CHANGED = { kind: 'success', text: 'Password changed. Every other session was signed out.' } as const

function showSecurity(c: Context<WebEnv>, extra: Partial<SecurityPageProps> = {}, status: 200 | 422 | 429 = 200) {
  return renderPage(c, 'Sign-in and security', <SecurityPage csrfToken={c.get('csrfToken')} {...extra} />, status)
}

export const securityRoutes = new Hono<WebEnv>()

securityRoutes.get('/settings/security', (c) => showSecurity(c, { notice: c.req.query('done') === 'password' ? CHANGED : undefined }))

securityRoutes.post('/settings/password', async (c) => {
  const body = await c.req.parseBody({ all: true })
  const parsed = passwordForm.safeParse(body)
  if (!parsed.success) {
    const errors = z.flattenError(parsed.error).fieldErrors
    return showSecurity(c, { passwordErrors: { current: errors.current_password?.[0], next: errors.new_password?.[0] } }, 422)
  }
  const user = currentUser(c)
  const result = await changePassword(depsOf(c.env).db, {
    userId: user.id,
    current: parsed.data.current_password,
    next: parsed.data.new_password,
    address: clientAddress(c),
    now: Date.now(),
    pepper: c.env.PASSWORD_PEPPER,
  })
  if (!result.ok && result.reason === 'throttled') {
    return showSecurity(c, { notice: { kind: 'error', text: tryAgainIn(result.retryInMinutes) } }, 429)
  }
  if (!result.ok) {
    const current = result.reason === 'wrong_password' ? 'That is not your current password' : 'Your password was changed meanwhile'
    return showSecurity(c, { passwordErrors: { current } }, 422)
  }
  await revokeAccess(depsOf(c.env), user.id, ticked(body.also_revoke))
  await restartAsOnlySession(c, user.id)
  return c.redirect('/settings/security?done=password', 303)
})

securityRoutes.post('/settings/signout-everywhere', async (c) => {
  const body = await c.req.parseBody({ all: true })
  await revokeAccess(depsOf(c.env), currentUser(c).id, ticked(body.also_revoke))
  await endAllSessions(c, currentUser(c).id)
  return c.redirect('/signin?signed_out=everywhere', 303)
})
