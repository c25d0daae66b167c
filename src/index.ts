// Wiring only: the security headers, the configuration check and the body limit for every
// route, the REST skin under /api/v1, MCP at /mcp, the OAuth endpoints and consent page, the
// pages for everything else, and the Durable Object classes (requests, the shared availability
// of each venue-day, the call limiters, the OAuth grants).
import { Hono } from 'hono'
import { carryOverConnection } from './access/reconnect'
import { endGrantAndItsRequests, revokeRequestsIfRevocationEndsGrant } from './access/revoke'
import { consentRoutes } from './account/routes/consent'
import { createApiApp } from './api/app'
import { deviceApi } from './api/device-api'
import { renderError } from './api/errors'
import { platformApi } from './api/platform-api'
import { createOAuthRoutes } from './auth/oauth-routes'
import { resolveBearerToken } from './auth/resolve-token'
import { warnOfEndingSessions } from './executors/session-warnings'
import { errorPage } from './html/error-page'
import type { WebEnv } from './html/render'
import { limitBodies } from './http/body-limit'
import { health } from './http/health'
import { registryAuth } from './http/registry-auth'
import { requireConfiguration } from './http/require-configuration'
import { securityHeaders } from './http/security-headers'
import { mcpRoutes } from './mcp/routes'
import { depsOf } from './runtime/deps'
import { webApp } from './web/app'

export { GrantObject } from './auth/grant-object'
export { RegistrationObject } from './auth/registration-object'
export { BudgetObject } from './budget/budget-object'
export { DeviceObject } from './devices/device-object'
export { RequestObject } from './request-aggregate/request-object'
export { AvailabilityObject } from './watching/availability-object'
export { CalendarObject } from './watching/calendar-object'
export { HorizonObject } from './watching/horizon-object'
export { LimiterObject } from './watching/limiter-object'

// One error wiring per mount. JSON: the REST skin and the two JSON APIs (the platform
// connection, the device program) answer in the contract's format (src/api/errors.ts). MCP
// answers as MCP (src/mcp/routes.ts), the OAuth endpoints as OAuth (the provider). Every page,
// the consent page included, answers with the HTML error page (src/html/error-page.tsx).
const json = new Hono<{ Bindings: Cloudflare.Env }>()
json.onError((err) => renderError(err))
json.route('/', createApiApp(resolveBearerToken))
json.route('/account/platform', platformApi)
json.route('/device/v1', deviceApi)

const pages = new Hono<WebEnv>()
pages.onError((err, c) => errorPage(c, err))
pages.route('/', consentRoutes)
pages.route('/', webApp)

const app = new Hono<{ Bindings: Cloudflare.Env }>()
app.use('*', securityHeaders())
app.use('*', requireConfiguration())
app.use('*', limitBodies({ page: errorPage }))
app.route('/', json)
app.route('/', mcpRoutes)
app.route(
  '/',
  createOAuthRoutes({
    revokeToken: (env, _url, token, revoke) => revokeRequestsIfRevocationEndsGrant(depsOf(env), token, revoke),
    endReplayedGrant: (env, _url, grant) => endGrantAndItsRequests(depsOf(env), grant),
    grantEstablished: (env, _url, grant) => carryOverConnection(depsOf(env), grant),
  }),
)
// Public liveness; the operators' figures (platform blocks, refused API keys) need OPERATOR_TOKEN.
app.get('/health', health)
// The official MCP registry's namespace proof (server.json), when MCP_REGISTRY_AUTH is set.
app.get('/.well-known/mcp-registry-auth', registryAuth)
// Last: the web app ends in a catch-all (static files, the not-found page).
app.route('/', pages)

export default {
  fetch: app.fetch,
  // The hourly cron (wrangler.toml [triggers]): warnings of platform sign-ins that end by themselves.
  scheduled(controller, env, ctx) {
    ctx.waitUntil(warnOfEndingSessions(depsOf(env, controller.scheduledTime)))
  },
} satisfies ExportedHandler<Cloudflare.Env>
