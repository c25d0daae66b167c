// The sandbox platform worker: the reservation platform's wire format on the same paths, with
// all state in one Durable Object per API host name ("world"), plus a control API for tests.
// Every platform answer passes the CDN (cdn.ts), as every answer of the platform does.
import { Hono } from 'hono'
import { markByCdn } from './cdn'
import type { SandboxEnv } from './env'
import { controlRoutes } from './routes/control'
import { platformRoutes } from './routes/platform'

export { SandboxPlatform } from './object'

const CONTROL = '/__sandbox'

const app = new Hono<{ Bindings: SandboxEnv }>()
app.use('*', async (c, next) => {
  await next()
  if (c.req.path !== CONTROL && !c.req.path.startsWith(`${CONTROL}/`))
    markByCdn(c.res.headers, new URL(c.req.url).hostname, c.req.header('Cookie'))
})
app.route(CONTROL, controlRoutes)
app.route('/', platformRoutes)
app.notFound((c) => c.json({ status: 404, message: 'Not Found' }, 404))

export default app
