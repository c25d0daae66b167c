// The MCP endpoint itself: stateless Streamable HTTP. Every request gets a fresh server bound
// to the caller's principal; nothing is kept between calls (URL-mode elicitation included:
// src/mcp/elicitation.ts).
import { insufficientScope, type OAuthResourceContext } from '@cloudflare/workers-oauth-provider'
import { createMcpHandler } from 'agents/mcp/server'
import { approvedRecently } from '../approval/approval-context'
import { MCP_REQUIRED_SCOPE } from '../auth/oauth'
import { hasScope, type Principal } from '../core/principal'
import type { Scope } from '../core/scopes'
import { AppError } from '../errors'
import { type Deps, depsOf } from '../runtime/deps'
import {
  approvalElicitationId,
  canElicitUrl,
  declaresUrlElicitation,
  onlyElicitationAnswers,
  type UrlElicitation,
  urlModeSessionId,
  withElicitations,
} from './elicitation'
import { mcpHttpError } from './errors'
import { allowedHostnames, allowedOriginHostnames } from './host-policy'
import { approvalRounds } from './input-required'
import { listingEveryVersion, mayListVersions, unsupportedVersionRefusal } from './protocol-versions'
import { buildMcpServer } from './server'
import { toolNamed } from './tools'

/**
 * A 403 with the Bearer `insufficient_scope` challenge, so an OAuth host starts step-up
 * authorization. The challenge's scope is what the token has plus what is missing (MCP's
 * recommended approach), so re-consenting loses nothing the user had granted.
 */
function scopeRefusal(ctx: OAuthResourceContext<Principal>, missing: Scope, message: string): Response {
  const scopes = [...ctx.props.scopes, missing]
  return mcpHttpError(insufficientScope(ctx.auth, scopes, message), new AppError('insufficient_scope', message))
}

/** How long an approval's completion is announced to the URL-mode client that asked for it. */
const COMPLETION_ANNOUNCED_MS = 24 * 60 * 60 * 1000

async function approvalsToAnnounce(deps: Deps, principal: Principal): Promise<string[]> {
  const approved = await approvedRecently(deps, principal, COMPLETION_ANNOUNCED_MS)
  return approved.map((a) => approvalElicitationId(a.requestId, a.revision))
}

/** The JSON-RPC messages of a POST (one, or each of a batch); none for anything else. */
async function messagesOf(request: Request): Promise<unknown[]> {
  if (request.method !== 'POST') return []
  const body: unknown = await request
    .clone()
    .json()
    .catch(() => null)
  return Array.isArray(body) ? body : body === null ? [] : [body]
}

/** The tools the tools/call messages name. */
function calledTools(messages: unknown[]): string[] {
  return messages.flatMap((message) => {
    if (typeof message !== 'object' || message === null || !('method' in message) || message.method !== 'tools/call') return []
    const params = 'params' in message ? message.params : null
    const name = typeof params === 'object' && params !== null && 'name' in params ? params.name : null
    return typeof name === 'string' ? [name] : []
  })
}

export async function serveMcp(request: Request, env: Cloudflare.Env, ctx: OAuthResourceContext<Principal>): Promise<Response> {
  const principal = ctx.props
  if (!hasScope(principal, MCP_REQUIRED_SCOPE)) {
    return scopeRefusal(ctx, MCP_REQUIRED_SCOPE, `An MCP connection needs the "${MCP_REQUIRED_SCOPE}" scope.`)
  }
  const messages = await messagesOf(request)
  const unsupported = unsupportedVersionRefusal(request, messages)
  if (unsupported) return unsupported
  // A tool the token's scopes do not allow is not listed; calling it anyway is refused here,
  // before the SDK would answer "unknown tool", with the challenge hosts act on.
  for (const name of calledTools(messages)) {
    const tool = toolNamed(name)
    if (tool && !hasScope(principal, tool.scope)) {
      return scopeRefusal(ctx, tool.scope, `The tool ${name} needs the "${tool.scope}" scope, which this connection was not granted.`)
    }
  }
  // The client's answers to our URL-mode elicitations: nothing waits for them.
  if (onlyElicitationAnswers(messages)) return new Response(null, { status: 202 })
  const asked: UrlElicitation[] = []
  const canAsk = canElicitUrl(request) && calledTools(messages).length > 0
  const tools = {
    principal,
    deps: depsOf(env, request.url),
    askToOpen: canAsk ? (page: UrlElicitation) => asked.push(page) : undefined,
    approvals: approvalRounds(env, principal),
  }
  const hosts = allowedHostnames(env)
  // The factory closes over this request's principal, so the handler is built per request;
  // building it is cheap (no I/O) and keeps auth out of ambient state.
  const handler = createMcpHandler(() => buildMcpServer(tools), {
    route: '/mcp',
    allowedHostnames: hosts,
    allowedOriginHostnames: allowedOriginHostnames(env),
    // CORS is answered by the route (src/mcp/routes.ts) for the allowed origins only, never `*`.
    corsOptions: false,
    // Bounded: an SDK message may repeat what a client sent.
    onerror: (error) => console.error('mcp handler error', error.message.slice(0, 200)),
  })
  const answered = await handler.fetch(request)
  const response = mayListVersions(messages, answered) ? await listingEveryVersion(answered) : answered
  if (canAsk) return withElicitations(response, asked, await approvalsToAnnounce(tools.deps, principal))
  if (response.ok && messages.some(declaresUrlElicitation)) {
    const initialized = new Response(response.body, response)
    initialized.headers.set('Mcp-Session-Id', urlModeSessionId())
    return initialized
  }
  return response
}
