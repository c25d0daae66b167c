// The MCP endpoint itself: stateless Streamable HTTP. Every request gets a fresh server bound
// to the caller's principal; nothing is kept between calls.
import { insufficientScope, type OAuthResourceContext } from '@cloudflare/workers-oauth-provider'
import { createMcpHandler } from 'agents/mcp/server'
import { MCP_REQUIRED_SCOPE } from '../auth/oauth'
import { hasScope, type Principal } from '../core/principal'
import { AppError } from '../errors'
import { depsOf } from '../requests/deps'
import { mcpHttpError } from './errors'
import { allowedHostnames } from './host-policy'
import { buildMcpServer } from './server'

export async function serveMcp(request: Request, env: Cloudflare.Env, ctx: OAuthResourceContext<Principal>): Promise<Response> {
  const principal = ctx.props
  if (!hasScope(principal, MCP_REQUIRED_SCOPE)) {
    const message = `An MCP connection needs the "${MCP_REQUIRED_SCOPE}" scope.`
    return mcpHttpError(insufficientScope(ctx.auth, [MCP_REQUIRED_SCOPE], message), new AppError('insufficient_scope', message))
  }
  const tools = { principal, deps: depsOf(env, request.url) }
  const hosts = allowedHostnames(env)
  // The factory closes over this request's principal, so the handler is built per request;
  // building it is cheap (no I/O) and keeps auth out of ambient state.
  const handler = createMcpHandler(() => buildMcpServer(tools), {
    route: '/mcp',
    allowedHostnames: hosts,
    allowedOriginHostnames: hosts,
    onerror: (error) => console.error('mcp handler error', error.message),
  })
  return handler.fetch(request)
}
