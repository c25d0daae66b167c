// What connector directories and the official MCP registry check before listing the server:
// both safety hints on every tool, the metadata that makes Claude use a Client ID Metadata
// Document (CIMD supported and "none" among the token endpoint's methods), and the registry's
// namespace proof at /.well-known/mcp-registry-auth.
import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import app from '../../src/index'
import { createUserWithToken } from '../helpers/auth'
import type { JsonBody } from '../helpers/json'
import { listTools } from './mcp-client'

const PROOF = 'v=MCPv1; k=ed25519; p=MCowBQYDK2VwAyEAbZ1B7Jz4kq3wq1x8Jc8ZfB0wq9y3m7m0mQ7hGZpWm1E='

async function registryAuthWith(value: string | undefined): Promise<Response> {
  const ctx = createExecutionContext()
  const res = await app.fetch(new Request('http://localhost:8787/.well-known/mcp-registry-auth'), { ...env, MCP_REGISTRY_AUTH: value }, ctx)
  await waitOnExecutionContext(ctx)
  return res
}

describe('ready for the directories', () => {
  it('every tool says both whether it only reads and whether it destroys', async () => {
    const { token } = await createUserWithToken()
    const tools = await listTools(token)
    expect(tools).toHaveLength(8)
    const hints: Record<string, JsonBody> = Object.fromEntries(tools.map((t) => [String(t.name), t.annotations as JsonBody]))
    for (const [name, hint] of Object.entries(hints)) {
      expect(typeof hint.readOnlyHint, name).toBe('boolean')
      expect(typeof hint.destructiveHint, name).toBe('boolean')
      if (hint.readOnlyHint) expect(hint.destructiveHint, name).toBe(false)
    }
    expect(hints.svc_stop_request?.destructiveHint).toBe(true)
    expect(hints.svc_get_request).toMatchObject({ readOnlyHint: true, destructiveHint: false })
  })

  it('keeps what makes Claude use a Client ID Metadata Document', async () => {
    const res = await SELF.fetch('http://localhost:8787/.well-known/oauth-authorization-server')
    const body = (await res.json()) as JsonBody
    expect(body.client_id_metadata_document_supported).toBe(true)
    expect(body.token_endpoint_auth_methods_supported).toContain('none')
  })

  it('advertises only token endpoint methods registration accepts (no private_key_jwt)', async () => {
    const res = await SELF.fetch('http://localhost:8787/.well-known/oauth-authorization-server')
    const body = (await res.json()) as JsonBody
    const methods = body.token_endpoint_auth_methods_supported as string[]
    expect(methods).not.toContain('private_key_jwt')
    expect(body.token_endpoint_auth_signing_alg_values_supported).toBeUndefined()
    for (const method of methods) {
      const registered = await SELF.fetch('http://localhost:8787/oauth/register', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          client_name: `Host using ${method}`,
          redirect_uris: ['http://localhost:9999/callback'],
          token_endpoint_auth_method: method,
        }),
      })
      expect(registered.status, method).toBe(201)
    }
  })

  it('serves the registry proof only when one is configured', async () => {
    const unset = await registryAuthWith(undefined)
    expect(unset.status).toBe(404)
    expect(await unset.text()).toContain('does not publish to the MCP registry')
    const set = await registryAuthWith(PROOF)
    expect(set.status).toBe(200)
    expect(set.headers.get('Content-Type')).toMatch(/^text\/plain/)
    expect(await set.text()).toBe(`${PROOF}\n`)
    // Anything that is not a proof line is not served as one.
    expect((await registryAuthWith('<script>alert(1)</script>')).status).toBe(404)
  })
})
