// DNS-rebinding protection for /mcp: the Host must be the service's public host, and a
// browser's Origin (when sent) must be too. Local development allows the loopback names.
import { hostHeaderValidationResponse, localhostAllowedHostnames, originValidationResponse } from '@modelcontextprotocol/server'
import { publicOrigin } from '../auth/oauth'

export function allowedHostnames(env: Cloudflare.Env): string[] {
  const host = new URL(publicOrigin(env)).hostname
  const loopback = localhostAllowedHostnames()
  return loopback.includes(host) ? loopback : [host]
}

/** A 403 JSON-RPC error for a foreign Host or Origin, or undefined when the request may go on. */
export function refuseForeignHost(request: Request, env: Cloudflare.Env): Response | undefined {
  const hosts = allowedHostnames(env)
  return hostHeaderValidationResponse(request, hosts) ?? originValidationResponse(request, hosts)
}
