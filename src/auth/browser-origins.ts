// Which web pages may call the service's protected resources (/mcp, /api/v1) from a browser:
// the service's own origin, the origins the deployment lists in ALLOWED_ORIGINS, and, when the
// service itself runs on a loopback origin (local development), any loopback origin (the MCP
// Inspector's page, say). Everything else is refused before a token is even looked at.
import type { Context, MiddlewareHandler } from 'hono'
import { cors } from 'hono/cors'
import { publicOrigin } from './oauth'

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

function isLoopback(origin: string): boolean {
  return URL.canParse(origin) && LOOPBACK.has(new URL(origin).hostname)
}

/** The configured list: origins separated by spaces or commas; anything that is not one is ignored. */
export function configuredOrigins(env: Cloudflare.Env): string[] {
  return (env.ALLOWED_ORIGINS ?? '')
    .split(/[\s,]+/)
    .filter((entry) => URL.canParse(entry) && /^https?:$/.test(new URL(entry).protocol))
    .map((entry) => new URL(entry).origin)
}

/** Whether a browser page of this origin may call /mcp and /api/v1. */
export function isAllowedBrowserOrigin(env: Cloudflare.Env, origin: string): boolean {
  if (!URL.canParse(origin)) return false
  const own = publicOrigin(env)
  const normalized = new URL(origin).origin
  if (normalized === own || configuredOrigins(env).includes(normalized)) return true
  return isLoopback(own) && isLoopback(normalized)
}

/**
 * CORS for a protected resource: preflights and responses name the caller's origin only when
 * it may call (never `*`), so a token-bearing page elsewhere cannot read the answers.
 */
export function browserCors(allowMethods: string[]): MiddlewareHandler<{ Bindings: Cloudflare.Env }> {
  return cors({
    origin: (origin, c: Context<{ Bindings: Cloudflare.Env }>) => (isAllowedBrowserOrigin(c.env, origin) ? origin : null),
    allowMethods,
    allowHeaders: [
      'Authorization',
      'Content-Type',
      'Accept',
      'Idempotency-Key',
      'MCP-Protocol-Version',
      'Mcp-Session-Id',
      'Mcp-Method',
      'Mcp-Name',
      'Last-Event-ID',
    ],
    exposeHeaders: ['WWW-Authenticate', 'Mcp-Session-Id', 'Idempotent-Replayed', 'Retry-After'],
    maxAge: 86_400,
  })
}
