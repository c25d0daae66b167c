// Dynamic client registration is capped, names lose control and bidirectional
// characters, and the consent page's CSP takes only a validated redirect origin.
import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { oauthApi } from '../../src/auth/oauth'
import { authorizePath, ORIGIN, pkcePair, REDIRECT_URI, register, signedInBrowser } from './oauth-client'

function registerRaw(metadata: Record<string, unknown>) {
  return SELF.fetch(`${ORIGIN}/oauth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', ...metadata }),
  })
}

async function expectRefused(res: Response): Promise<void> {
  expect(res.status).toBe(400)
  expect(((await res.json()) as { error: string }).error).toBe('invalid_client_metadata')
}

/** The consent page for a client, as a signed-in user opens it. */
async function consentPage(clientId: string, redirectUri = REDIRECT_URI): Promise<Response> {
  const { web } = await signedInBrowser()
  const { challenge } = await pkcePair()
  return web.get(authorizePath({ client: { client_id: clientId, redirect_uris: [redirectUri] }, challenge, method: 'S256', redirectUri }))
}

describe('registration limits', () => {
  it('refuses a client_name over 100 characters', async () => {
    await expectRefused(await registerRaw({ client_name: 'A'.repeat(5_000) }))
  })

  it('refuses more than 10 redirect URIs', async () => {
    const uris = Array.from({ length: 11 }, (_, i) => `http://127.0.0.1:${40_000 + i}/callback`)
    await expectRefused(await registerRaw({ redirect_uris: uris }))
  })

  it('refuses a long string in any field, and too many fields', async () => {
    await expectRefused(await registerRaw({ client_uri: `https://x.example/${'p'.repeat(5_000)}` }))
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`x_field_${i}`, 'v']))
    await expectRefused(await registerRaw(many))
  })

  it('refuses a redirect host that is not a plain host name (a ";" would end up in the CSP)', async () => {
    await expectRefused(await registerRaw({ redirect_uris: ['https://evil.example;sandbox/cb'] }))
  })

  it('still registers an ordinary client', async () => {
    const client = await register({
      client_name: 'Claude Desktop',
      redirect_uris: [REDIRECT_URI, 'https://claude.ai/api/mcp/auth_callback'],
    })
    expect(client.client_id).toEqual(expect.any(String))
  })
})

describe('names a person reads', () => {
  it('lose bidirectional overrides and control characters, at registration and on the consent page', async () => {
    const res = await registerRaw({ client_name: 'Trusted\u202Eexe.gnp\u0000 App' })
    expect(res.status).toBe(201)
    const client = (await res.json()) as { client_id: string; client_name: string }
    expect(client.client_name).toBe('Trustedexe.gnp App')
    const html = await (await consentPage(client.client_id)).text()
    expect(html).toContain('Allow Trustedexe.gnp App to use your Tablewatch account?')
    for (const unsafe of ['\u202e', '\u0000']) expect(html).not.toContain(unsafe)
  })

  it('are cleaned on the consent page for a client stored before registration cleaned them', async () => {
    const stored = await oauthApi(env).createClient({
      clientName: 'Old\u2067Client\u2069',
      redirectUris: [REDIRECT_URI],
      tokenEndpointAuthMethod: 'none',
    })
    const html = await (await consentPage(stored.clientId)).text()
    expect(html).toContain('Allow OldClient to use your Tablewatch account?')
  })
})

describe("the consent page's CSP", () => {
  it('never takes a redirect origin that is not a plain host: such a client is refused', async () => {
    const stored = await oauthApi(env).createClient({
      clientName: 'Stored earlier',
      redirectUris: ['https://evil.example;sandbox/cb'],
      tokenEndpointAuthMethod: 'none',
    })
    const res = await consentPage(stored.clientId, 'https://evil.example;sandbox/cb')
    expect(res.headers.get('Content-Security-Policy')).not.toContain('sandbox')
    expect(res.status).toBe(400)
  })

  it("allows the form to lead to a registered client's redirect origin", async () => {
    const client = await register()
    const res = await consentPage(client.client_id)
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Security-Policy')).toContain("form-action 'self' http://127.0.0.1:33418;")
  })
})
