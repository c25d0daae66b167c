// Wiring only: the security headers, the configuration check and the body limit for every
// route, the REST skin under /api/v1, MCP at /mcp, the OAuth endpoints and consent page, the
// pages for everything else, and the Durable Object classes (requests, the shared availability
// of each venue-day, the call limiters).
import { Hono } from 'hono'
import { consentRoutes } from './account/routes/consent'
import { createApiApp } from './api/app'
import { deviceApi } from './api/device-api'
import { platformApi } from './api/platform-api'
import { createOAuthRoutes } from './auth/oauth-routes'
import { resolveBearerToken } from './auth/resolve-token'
import { errorPage } from './html/error-page'
import { limitBodies } from './http/body-limit'
import { health } from './http/health'
import { requireConfiguration } from './http/require-configuration'
import { securityHeaders } from './http/security-headers'
import { mcpRoutes } from './mcp/routes'
import { carryOverConnection } from './requests/reconnect'
import { endGrantAndItsRequests, revokeRequestsIfRevocationEndsGrant } from './requests/revoke'
import { depsOf } from './runtime/deps'
import { webApp } from './web/app'

export { DeviceObject } from './devices/device-object'
export { RequestObject } from './requests/request-object'
export { AvailabilityObject } from './watching/availability-object'
export { BudgetObject } from './watching/budget-object'
export { CalendarObject } from './watching/calendar-object'
export { LimiterObject } from './watching/limiter-object'

const app = new Hono<{ Bindings: Cloudflare.Env }>()
app.use('*', securityHeaders())
app.use('*', requireConfiguration())
app.use('*', limitBodies({ page: errorPage }))
app.route('/', createApiApp(resolveBearerToken))
app.route('/', mcpRoutes)
app.route(
  '/',
  createOAuthRoutes({
    revokeToken: (env, url, token, revoke) => revokeRequestsIfRevocationEndsGrant(depsOf(env, url), token, revoke),
    endReplayedGrant: (env, url, grant) => endGrantAndItsRequests(depsOf(env, url), grant),
    grantEstablished: (env, url, grant) => carryOverConnection(depsOf(env, url), grant),
  }),
)
app.route('/', consentRoutes)
app.route('/account/platform', platformApi)
app.route('/device/v1', deviceApi)
// Public liveness; the operators' figures (platform blocks, refused API keys) need OPERATOR_TOKEN.
app.get('/health', health)
app.route('/', webApp)

export default app
