// The confirmation step (a GET of the action's own path) of every action that cannot be undone:
// stop and decline a request, revoke a token or a paired device, disconnect an assistant or the
// platform account.
// The POST routes beside each area act; these pages only ask. Anything that is no longer there
// to act on (already stopped, revoked, not connected) goes back to its page.
import { type Context, Hono } from 'hono'
import { listGrants } from '../../auth/oauth-grants'
import { listAccessTokens } from '../../auth/pat'
import { currentUser, requireSession } from '../../auth/session'
import { revocationOf } from '../../devices/device-settings'
import { AppError } from '../../errors'
import { connectionStatus } from '../../executors/connection'
import { ConfirmStep, type ConfirmStepProps } from '../../html/components/confirm'
import { errorPage, pageNotFound } from '../../html/error-page'
import { renderPage, type WebEnv } from '../../html/render'
import { loadRequest } from '../../request-use-cases/load'
import { depsOf } from '../../runtime/deps'

const OPEN = new Set(['needs_approval', 'active', 'awaiting_verification'])

function ask(c: Context<WebEnv>, title: string, props: Omit<ConfirmStepProps, 'csrfToken'>) {
  return renderPage(c, title, <ConfirmStep csrfToken={c.get('csrfToken')} {...props} />)
}

export const confirmStepRoutes = new Hono<WebEnv>()
for (const path of ['/requests/:id/stop', '/requests/:id/decline', '/assistants/*', '/settings/platform/disconnect', '/settings/devices/*'])
  confirmStepRoutes.use(path, requireSession())

async function openRequestOf(c: Context<WebEnv>) {
  const deps = depsOf(c.env)
  try {
    const state = await loadRequest(deps, c.req.param('id') ?? '', { userId: currentUser(c).id })
    return { state, open: OPEN.has(state.status) }
  } catch (err) {
    if (err instanceof AppError && err.code === 'request_not_found') return null
    throw err
  }
}

confirmStepRoutes.get('/requests/:id/stop', async (c) => {
  const found = await openRequestOf(c)
  if (!found) return errorPage(c, pageNotFound())
  const page = `/requests/${encodeURIComponent(found.state.id)}`
  if (!found.open) return c.redirect(page, 303)
  const title = found.state.spec.title
  return ask(c, 'Stop watching?', {
    question: title ? `Stop watching “${title}”?` : 'Stop watching this request?',
    action: `${page}/stop`,
    confirmLabel: 'Stop watching',
    cancelHref: page,
    cancelLabel: 'Keep watching',
    children: (
      <p>
        Tablewatch stops watching for tables and sends no more alerts for this request. It never cancels a reservation: to cancel or change
        one, use the platform's own account page. This cannot be undone; your assistant can create a new request.
      </p>
    ),
  })
})

confirmStepRoutes.get('/requests/:id/decline', async (c) => {
  const found = await openRequestOf(c)
  if (!found) return errorPage(c, pageNotFound())
  const page = `/requests/${encodeURIComponent(found.state.id)}`
  if (found.state.status !== 'needs_approval') return c.redirect(page, 303)
  return ask(c, 'Decline?', {
    question: 'Decline this booking request?',
    action: `${page}/decline`,
    confirmLabel: 'Decline',
    cancelHref: `${page}/approve`,
    cancelLabel: 'Back to the request',
    children: (
      <p>Nothing will be watched or booked for it. This cannot be undone; if you change your mind, ask your assistant for a new request.</p>
    ),
  })
})

confirmStepRoutes.get('/assistants/tokens/:id/revoke', async (c) => {
  const deps = depsOf(c.env)
  const tokens = await listAccessTokens(deps.db, currentUser(c).id)
  const token = tokens.find((t) => t.id === c.req.param('id') && t.revokedAt === null && t.expiresAt > deps.now)
  if (!token) return c.redirect('/assistants', 303)
  return ask(c, 'Revoke token?', {
    question: `Revoke the token “${token.name}”?`,
    action: `/assistants/tokens/${encodeURIComponent(token.id)}/revoke`,
    confirmLabel: 'Revoke token',
    cancelHref: '/assistants',
    cancelLabel: 'Keep it',
    children: (
      <p>
        Assistants using it can no longer reach your account, and the requests it created stop and show “revoked”. Reservations stay as they
        are. This cannot be undone.
      </p>
    ),
  })
})

confirmStepRoutes.get('/assistants/grants/:id/revoke', async (c) => {
  const grants = await listGrants(c.env, currentUser(c).id)
  const grant = grants.find((g) => g.id === c.req.param('id'))
  if (!grant) return c.redirect('/assistants', 303)
  return ask(c, 'Disconnect assistant?', {
    question: `Disconnect ${grant.clientName}?`,
    action: `/assistants/grants/${encodeURIComponent(grant.id)}/revoke`,
    confirmLabel: 'Disconnect',
    cancelHref: '/assistants',
    cancelLabel: 'Keep it connected',
    children: (
      <p>
        It can no longer reach your account, and the requests it created stop and show “revoked”. Reservations stay as they are. To use it
        again, connect it anew from the assistant.
      </p>
    ),
  })
})

confirmStepRoutes.get('/settings/platform/disconnect', async (c) => {
  const connection = await connectionStatus(depsOf(c.env), currentUser(c).id)
  if (!connection.connected) return c.redirect('/settings', 303)
  return ask(c, 'Disconnect platform?', {
    question: 'Disconnect your platform account?',
    action: '/settings/platform/disconnect',
    confirmLabel: 'Disconnect',
    cancelHref: '/settings',
    cancelLabel: 'Stay connected',
    children: (
      <p>
        Tablewatch forgets the platform's access token for {connection.displayName ?? 'your account'}. Your open requests stop and show
        “revoked”. Existing reservations stay on the platform.
      </p>
    ),
  })
})

confirmStepRoutes.get('/settings/devices/:id/revoke', async (c) => {
  const device = await revocationOf(depsOf(c.env), currentUser(c).id, c.req.param('id'))
  if (!device) return c.redirect('/settings', 303)
  return ask(c, 'Revoke device?', {
    question: `Revoke the device “${device.name}”?`,
    action: `/settings/devices/${encodeURIComponent(c.req.param('id'))}/revoke`,
    confirmLabel: 'Revoke device',
    cancelHref: '/settings',
    cancelLabel: 'Keep it paired',
    children: (
      <>
        <p>
          It is disconnected at once and its credential stops working. Its platform sign-in stays on the device; Tablewatch never had it.
          Reservations stay as they are. To use it again, pair it anew from Settings.
        </p>
        {device.lastBookingDevice ? (
          <p>
            Booking happens from your device and this is the only one paired:{' '}
            {device.cloudFallback
              ? 'your open requests are checked and booked in the cloud (your fallback) until you pair a device again.'
              : 'your open requests pause until you pair a device again or choose the cloud in Settings.'}
          </p>
        ) : null}
      </>
    ),
  })
})
