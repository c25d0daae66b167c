// How an MCP host finds the authorization server: RFC 8414 and RFC 9728 documents, and the
// 401 challenge on /mcp that points at them.

import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createUserWithToken } from '../helpers/auth'
import type { JsonBody } from '../helpers/json'
import { mcpPost, rpc } from '../mcp/mcp-client'
import { API_RESOURCE, MCP_RESOURCE, ORIGIN } from './oauth-client'

const SCOPES = ['restaurants:read', 'requests:read', 'requests:write', 'reservations:read']

async function json(path: string): Promise<{ status: number; body: JsonBody }> {
  const res = await SELF.fetch(`${ORIGIN}${path}`)
  return { status: res.status, body: (await res.json()) as JsonBody }
}

describe('authorization server metadata (RFC 8414)', () => {
  it('names the endpoints, S256 as the only PKCE method, the four scopes and both resources', async () => {
    const { status, body } = await json('/.well-known/oauth-authorization-server')
    expect(status).toBe(200)
    expect(body).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/oauth/authorize`,
      token_endpoint: `${ORIGIN}/oauth/token`,
      registration_endpoint: `${ORIGIN}/oauth/register`,
      revocation_endpoint: `${ORIGIN}/oauth/token`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      scopes_supported: SCOPES,
      protected_resources: [MCP_RESOURCE, API_RESOURCE],
    })
    expect(body.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']))
    expect(body.grant_types_supported).not.toContain('implicit')
  })

  it('prefers Client ID Metadata Documents to registration, and links the page that says so', async () => {
    const { body } = await json('/.well-known/oauth-authorization-server')
    expect(body.client_id_metadata_document_supported).toBe(true)
    expect(body.service_documentation).toBe(`${ORIGIN}/developers#mcp`)
    const page = await (await SELF.fetch(body.service_documentation)).text()
    expect(page).toContain('needs no registration')
  })
})

describe('protected resource metadata (RFC 9728)', () => {
  it('describes /mcp, its issuer, and the scopes hosts should ask for', async () => {
    const { status, body } = await json('/.well-known/oauth-protected-resource/mcp')
    expect(status).toBe(200)
    expect(body).toMatchObject({
      resource: MCP_RESOURCE,
      authorization_servers: [ORIGIN],
      scopes_supported: SCOPES,
      bearer_methods_supported: ['header'],
    })
  })

  it('describes /api/v1 with the same issuer', async () => {
    const { status, body } = await json('/.well-known/oauth-protected-resource/api/v1')
    expect(status).toBe(200)
    expect(body).toMatchObject({ resource: API_RESOURCE, authorization_servers: [ORIGIN] })
  })
})

describe('the 401 on /mcp', () => {
  it('names the resource metadata document when no token is sent', async () => {
    const res = await mcpPost(rpc('tools/list'))
    expect(res.status).toBe(401)
    const challenge = res.headers.get('WWW-Authenticate') ?? ''
    expect(challenge).toMatch(/^Bearer /)
    expect(challenge).toContain(`resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp"`)
    expect(res.message).toMatchObject({ code: 'unauthorized' })
  })

  it('answers an unknown token with invalid_token and the same resource metadata', async () => {
    const res = await mcpPost(rpc('tools/list'), { token: 'usr_x:grant_y:not-a-real-secret' })
    expect(res.status).toBe(401)
    const challenge = res.headers.get('WWW-Authenticate') ?? ''
    expect(challenge).toContain('error="invalid_token"')
    expect(challenge).toContain(`resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp"`)
    expect(res.message).toMatchObject({ code: 'unauthorized' })
  })

  it('says authorization_revoked for a revoked personal access token', async () => {
    const { token } = await createUserWithToken({ revokedAt: Date.now() - 1000 })
    const res = await mcpPost(rpc('tools/list'), { token })
    expect(res.status).toBe(401)
    expect(res.message).toMatchObject({ code: 'authorization_revoked' })
    expect(res.headers.get('WWW-Authenticate')).toContain('resource_metadata=')
  })
})

describe('DNS-rebinding protection on /mcp', () => {
  it('refuses a foreign Host even with a valid token', async () => {
    const { token } = await createUserWithToken()
    const res = await mcpPost(rpc('tools/list'), { token, headers: { Host: 'attacker.example' } })
    expect(res.status).toBe(403)
  })

  it('refuses a foreign browser Origin even with a valid token', async () => {
    const { token } = await createUserWithToken()
    const res = await mcpPost(rpc('tools/list'), { token, headers: { Origin: 'http://attacker.example' } })
    expect(res.status).toBe(403)
  })

  it('serves its own Origin and clients that send none', async () => {
    const { token } = await createUserWithToken()
    expect((await mcpPost(rpc('tools/list'), { token, headers: { Origin: ORIGIN } })).status).toBe(200)
    expect((await mcpPost(rpc('tools/list'), { token })).status).toBe(200)
  })
})
