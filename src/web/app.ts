// The web app: every page and form of the service. src/index.ts mounts it for everything
// that is not the API, MCP or OAuth. Static files in public/ are served through ASSETS.
import { Hono } from 'hono'
import { assistantsRoutes } from '../account/routes/assistants'
import { developersRoutes } from '../account/routes/developers'
import { platformConnectionRoutes } from '../account/routes/platform-connection'
import { privacyRoutes } from '../account/routes/privacy'
import { pushRoutes } from '../account/routes/push'
import { pushRenewalRoutes } from '../account/routes/push-renewal'
import { securityRoutes } from '../account/routes/security'
import { settingsRoutes } from '../account/routes/settings'
import { deviceRoutes } from '../account/routes/settings-devices'
import { unsubscribeRoutes } from '../account/routes/unsubscribe'
import { csrfProtection } from '../auth/csrf'
import { sessionUser } from '../auth/session'
import { authRoutes } from '../diner-sign-in/routes/auth'
import { passwordResetRoutes } from '../diner-sign-in/routes/password-reset'
import { csrfRefused, staticOrNotFound } from '../html/fallbacks'
import { readableForms } from '../html/form-body'
import type { WebEnv } from '../html/render'
import { bookTableRoutes } from './routes/book-table'
import { calendarRoutes } from './routes/calendar'
import { confirmStepRoutes } from './routes/confirm-steps'
import { homeRoutes } from './routes/home'
import { likelyAddressRoutes } from './routes/likely-addresses'
import { notificationsRoutes } from './routes/notifications'
import { requestsRoutes } from './routes/requests'

export const webApp = new Hono<WebEnv>()

// Paths of the API, MCP and OAuth skins are never pages: if no handler of theirs answered, the
// mounting app's not-found answers (no page markup, no session or CSRF work).
const NOT_WEB = /^\/(api|mcp|oauth|\.well-known)(\/|$)/
webApp.use('*', async (c, next) => (NOT_WEB.test(c.req.path) ? c.notFound() : next()))
// Security headers (CSP, framing, nosniff, caching) are set for every route in src/index.ts.
// The unsubscribe link's signed token is its own credential: no session, no CSRF form token.
webApp.route('/', unsubscribeRoutes)
// A renewed push subscription carries the earlier one's secret as its credential (no session).
webApp.route('/', pushRenewalRoutes)
webApp.use('*', sessionUser())
webApp.use('*', csrfProtection({ onRefused: csrfRefused }))
webApp.use('*', readableForms())

webApp.route('/', confirmStepRoutes)
webApp.route('/', calendarRoutes)
webApp.route('/', homeRoutes)
webApp.route('/', authRoutes)
webApp.route('/', passwordResetRoutes)
webApp.route('/', assistantsRoutes)
webApp.route('/', settingsRoutes)
webApp.route('/', securityRoutes)
webApp.route('/', platformConnectionRoutes)
webApp.route('/', deviceRoutes)
webApp.route('/', pushRoutes)
webApp.route('/', notificationsRoutes)
webApp.route('/', developersRoutes)
webApp.route('/', likelyAddressRoutes)
webApp.route('/', bookTableRoutes)
webApp.route('/', privacyRoutes)
webApp.route('/', requestsRoutes)

// Everything else is a static file from public/ or the not-found page. A catch-all route (not
// only notFound) because a mounting app's notFound wins over a mounted app's.
webApp.all('*', staticOrNotFound)
webApp.notFound(staticOrNotFound)
