// GET /.well-known/mcp-registry-auth: the official MCP registry's HTTP proof that this
// deployment's domain owns the server's namespace (server.json's name). The registry reads the
// line `v=MCPv1; k=ed25519; p=<public key>` here; the key is public (its private half signs the
// publisher's login and never comes near the service), so it is configuration, MCP_REGISTRY_AUTH.
// Unset (every deployment that does not publish to the registry), the path does not exist.
import type { Context } from 'hono'

const PROOF = /^v=MCPv1; k=(ed25519|ecdsap384); p=[A-Za-z0-9+/]+={0,2}$/

export function registryAuth(c: Context<{ Bindings: Cloudflare.Env }>): Response {
  const proof = (c.env.MCP_REGISTRY_AUTH ?? '').trim()
  const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }
  if (!PROOF.test(proof))
    return new Response('Not found: this deployment does not publish to the MCP registry.\n', { status: 404, headers })
  return new Response(`${proof}\n`, { status: 200, headers })
}
