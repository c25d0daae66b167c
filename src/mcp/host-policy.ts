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

/** A 403 JSON-RPC error for a foreign Host or Origin, or undefined when the request may go on. */
export function refuseForeignHost(request: Request, env: Cloudflare.Env): Response | undefined {
  const hosts = allowedHostnames(env)
  const hostRefusal = hostHeaderValidationResponse(request, hosts)
  if (hostRefusal) return hostRefusal
  const origin = request.headers.get('Origin')
  if (origin === null || isAllowedBrowserOrigin(env, origin)) return undefined
  // The SDK's refusal, for an Origin no host name passes.
  return originValidationResponse(request, [])
}
