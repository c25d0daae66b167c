// The settings page's paired devices: start pairing, revoke a device, and choose
// where booking happens. Session and CSRF as every form; the pairing code is shown once, on a page
// of its own that answers the POST (never in a URL).
import { Hono } from 'hono'
import { z } from 'zod'
import { PAIRING_CODE_LIFETIME_MS } from '../../auth/device-credentials'
import { currentUser, requireSession } from '../../auth/session'
import { chooseExecution, revokeDevice, startPairing } from '../../devices/device-settings'
import { AppError } from '../../errors'
import { renderPage, type WebEnv } from '../../html/render'
import { depsOf } from '../../runtime/deps'
import { PairDevicePage } from '../pages/pair-device'
import { showSettings } from './settings'

const executionForm = z.object({
  execution: z.enum(['cloud', 'user_device'], 'Choose where booking happens'),
  cloud_fallback: z.literal('on').optional(),
})

/** The device program's command as the user types it. */
function pairCommand(baseUrl: string, userCode: string): string {
  return `npx tablewatch-device pair --service ${baseUrl} --code ${userCode}`
}

export const deviceRoutes = new Hono<WebEnv>()
deviceRoutes.use('/settings/devices/*', requireSession())
deviceRoutes.use('/settings/execution', requireSession())

deviceRoutes.post('/settings/devices/pair', async (c) => {
  const deps = depsOf(c.env)
  const { userCode, expiresAt } = await startPairing(deps.db, currentUser(c).id, deps.now)
  const pairing = { userCode, expiresAt, command: pairCommand(deps.baseUrl, userCode) }
  return renderPage(c, 'Pair a device', <PairDevicePage pairing={pairing} lifetimeMinutes={PAIRING_CODE_LIFETIME_MS / 60_000} />)
})

deviceRoutes.post('/settings/devices/:id/revoke', async (c) => {
  try {
    await revokeDevice(depsOf(c.env), currentUser(c).id, c.req.param('id'))
  } catch (err) {
    if (!(err instanceof AppError)) throw err
    return showSettings(c, { notice: { kind: 'error', text: err.message } }, 422)
  }
  return c.redirect('/settings?done=device_revoked', 303)
})

deviceRoutes.post('/settings/execution', async (c) => {
  const parsed = executionForm.safeParse(await c.req.parseBody())
  if (!parsed.success) return showSettings(c, { notice: { kind: 'error', text: 'Choose where booking happens.' } }, 422)
  const setting = { execution: parsed.data.execution, cloudFallback: parsed.data.cloud_fallback === 'on' }
  try {
    await chooseExecution(depsOf(c.env), currentUser(c).id, setting)
  } catch (err) {
    if (!(err instanceof AppError)) throw err
    return showSettings(c, { notice: { kind: 'error', text: err.message } }, 422)
  }
  return c.redirect('/settings?done=execution_saved', 303)
})
