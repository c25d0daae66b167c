// DNS-rebinding protection for /mcp: the Host must be the service's public host, and a
// browser's Origin (when sent) must be one that may call it (src/auth/browser-origins.ts):
// the service's own, one configured in ALLOWED_ORIGINS, or, locally, a loopback origin.
import { hostHeaderValidationResponse, localhostAllowedHostnames, originValidationResponse } from '@modelcontextprotocol/server'
import { configuredOrigins, isAllowedBrowserOrigin } from '../auth/browser-origins'
import { publicOrigin } from '../auth/oauth'

export function allowedHostnames(env: Cloudflare.Env): string[] {
  const host = new URL(publicOrigin(env)).hostname
  const loopback = localhostAllowedHostnames()
  return loopback.includes(host) ? loopback : [host]
}

/** The host names of every origin whose pages may call /mcp (the SDK's own Origin check takes names). */
export function allowedOriginHostnames(env: Cloudflare.Env): string[] {
  return [...new Set([...allowedHostnames(env), ...configuredOrigins(env).map((origin) => new URL(origin).hostname)])]
}

/**
 * A browser page of a foreign origin is refused, but readably: the refusal (and the preflight
 * before it) names that origin in Access-Control-Allow-Origin, so a host running in the browser
 * shows why instead of "Failed to fetch". Nothing else is readable: the refusal comes before any
 * token is looked at, and carries no data but the reason.
 */
function foreignOriginRefusal(request: Request, origin: string): Response {
  const cors = { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' }
  if (request.method === 'OPTIONS') {
    const headers = new Headers(cors)
    headers.set('Access-Control-Allow-Methods', 'POST, OPTIONS')
    headers.set('Access-Control-Allow-Headers', request.headers.get('Access-Control-Request-Headers') ?? 'Content-Type')
    headers.set('Access-Control-Max-Age', '600')
    return new Response(null, { status: 204, headers })
  }
  const message = `Forbidden: pages of ${origin} may not call this MCP server from a browser. Connect from a desktop or server-side host, or ask the deployment to add ${origin} to ALLOWED_ORIGINS.`
  return Response.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, { status: 403, headers: cors })
}

/** A 403 JSON-RPC error for a foreign Host or Origin, or undefined when the request may go on. */
export function refuseForeignHost(request: Request, env: Cloudflare.Env): Response | undefined {
  const hosts = allowedHostnames(env)
  const hostRefusal = hostHeaderValidationResponse(request, hosts)
  if (hostRefusal) return hostRefusal
  const origin = request.headers.get('Origin')
  if (origin === null || isAllowedBrowserOrigin(env, origin)) return undefined
  // An Origin that is not one (a sandboxed page's "null", garbage): the SDK's plain refusal.
  if (!URL.canParse(origin) || !/^https?:$/.test(new URL(origin).protocol)) return originValidationResponse(request, [])
  return foreignOriginRefusal(request, new URL(origin).origin)
}
