// Routing for /mcp: DNS-rebinding checks first, CORS preflights for the origins that may call
// it, then the protected resource (token, scope, the MCP handler). Its RFC 9728 metadata
// document is public, at /.well-known/oauth-protected-resource/mcp and at the root well-known
// path (where clients that do not insert the resource path look).
import { type Context, Hono } from 'hono'
import { browserCors } from '../auth/browser-origins'
import { workerContext } from '../auth/oauth-routes'
import { refuseForeignHost } from './host-policy'
import { mcpResource } from './resource'

type McpEnv = { Bindings: Cloudflare.Env }

/** The only method the stateless endpoint serves (GET streams and DELETE of a session are not offered). */
const MCP_METHODS = ['POST']
const ALLOW = [...MCP_METHODS, 'OPTIONS'].join(', ')

async function guardedMcp(c: Context<McpEnv>): Promise<Response> {
  const response = await mcpResource(c.req.raw, c.env, workerContext(c))
  if (response.status !== 405) return response
  const answer = new Response(response.body, response)
  answer.headers.set('Allow', ALLOW)
  return answer
}

/** The /mcp resource's metadata document, whichever well-known path asked for it. */
function metadata(c: Context<McpEnv>): Promise<Response> {
  const url = new URL(c.req.url)
  url.pathname = '/.well-known/oauth-protected-resource/mcp'
  return mcpResource(new Request(url, c.req.raw), c.env, workerContext(c))
}

export const mcpRoutes = new Hono<McpEnv>()
for (const path of ['/mcp', '/mcp/*']) {
  mcpRoutes.use(path, async (c, next) => {
    const refused = refuseForeignHost(c.req.raw, c.env)
    if (refused) return refused
    await next()
  })
  mcpRoutes.use(path, browserCors(MCP_METHODS))
  mcpRoutes.all(path, guardedMcp)
}
mcpRoutes.all('/.well-known/oauth-protected-resource/mcp', metadata)
mcpRoutes.all('/.well-known/oauth-protected-resource', metadata)
