// Wiring only: the REST skin under /api/v1, the pages for everything else, and the
// request Durable Object class.
import { Hono } from 'hono'
import { createApiApp } from './api/app'
import { resolveBearerToken } from './auth/resolve-token'
import { webApp } from './web/app'
import { platformApi } from './web/routes/platform-api'

export { AvailabilityObject } from './requests/availability-object'
export { RequestObject } from './requests/request-object'

const app = new Hono<{ Bindings: Cloudflare.Env }>()
app.route('/', createApiApp(resolveBearerToken))
app.route('/account/platform', platformApi)
app.get('/health', (c) => c.json({ ok: true }))
app.route('/', webApp)

export default app
