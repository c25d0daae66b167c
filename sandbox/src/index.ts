// The sandbox platform worker: the reservation platform's wire format on the same paths, with
// all state in one Durable Object per API host name ("world"), plus a control API for tests.
import { Hono } from 'hono'
import type { SandboxEnv } from './env'
import { controlRoutes } from './routes/control'
import { platformRoutes } from './routes/platform'

export { SandboxPlatform } from './object'

const app = new Hono<{ Bindings: SandboxEnv }>()
app.route('/__sandbox', controlRoutes)
app.route('/', platformRoutes)
app.notFound((c) => c.json({ status: 404, message: 'Not Found' }, 404))

export default app
