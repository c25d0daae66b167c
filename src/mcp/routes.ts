// Routing for /mcp: DNS-rebinding checks first, then the protected resource (token, scope,
// the MCP handler). Its RFC 9728 metadata document is public.
import { type Context, Hono } from 'hono'
import { workerContext } from '../auth/oauth-routes'
import { refuseForeignHost } from './host-policy'
import { mcpResource } from './resource'

type McpEnv = { Bindings: Cloudflare.Env }

async function guardedMcp(c: Context<McpEnv>): Promise<Response> {
  return refuseForeignHost(c.req.raw, c.env) ?? mcpResource(c.req.raw, c.env, workerContext(c))
}

export const mcpRoutes = new Hono<McpEnv>()
mcpRoutes.all('/mcp', guardedMcp)
mcpRoutes.all('/mcp/*', guardedMcp)
mcpRoutes.all('/.well-known/oauth-protected-resource/mcp', (c) => mcpResource(c.req.raw, c.env, workerContext(c)))
