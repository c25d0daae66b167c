// Every request is refused (503) while the deployment lacks what it cannot run without
// (src/core/deployment.ts): a production without PUBLIC_BASE_URL serves nothing rather than
// building links and OAuth audiences from whatever Host a caller sends. The names go to the log.
import type { MiddlewareHandler } from 'hono'
import { missingConfiguration } from '../core/deployment'

export function requireConfiguration(): MiddlewareHandler<{ Bindings: Cloudflare.Env }> {
  return async function requireConfigurationMiddleware(c, next) {
    const missing = missingConfiguration(c.env)
    if (missing.length === 0) return next()
    console.error(`refusing to serve: missing configuration ${missing.join(', ')}`)
    return c.text('Tablewatch is not configured yet. The operator has been told what is missing.', 503)
  }
}
