// HTTP conventions hosts and browsers rely on: Allow on every 405, CORS preflights answered for
// the configured origins (and only them) in a production configuration, and the /mcp resource
// metadata served at the root well-known path too.
import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import app from '../../src/index'
import { createUserWithToken } from '../helpers/auth'
import { ORIGIN } from '../oauth/oauth-client'
import { mcpPost, rpc } from './mcp-client'

/** The real app with a production origin and one configured browser origin. */
const PRODUCTION = 'https://tablewatch.example'
const ALLOWED = 'https://assistant.example.org'

async function inProduction(path: string, init: RequestInit): Promise<Response> {
  const production = { ...env, PUBLIC_BASE_URL: PRODUCTION, ALLOWED_ORIGINS: `${ALLOWED} https://other.example.net` }
  const ctx = createExecutionContext()
  const request = new Request(`${PRODUCTION}${path}`, init)
  request.headers.set('Host', new URL(PRODUCTION).host)
  const res = await app.fetch(request, production, ctx)
  await waitOnExecutionContext(ctx)
  return res
}

const preflight = (origin: string, method = 'POST') => ({
  method: 'OPTIONS',
  headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'authorization, content-type' },
})

describe('405 Method Not Allowed', () => {
  it('names the methods /mcp serves', async () => {
    const { token } = await createUserWithToken()
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const res = await SELF.fetch(`${ORIGIN}/mcp`, {
        method,
        headers: { Host: 'localhost:8787', Authorization: `Bearer ${token}`, Accept: 'application/json, text/event-stream' },
      })
      expect(res.status, method).toBe(405)
      expect(res.headers.get('Allow'), method).toBe('POST, OPTIONS')
    }
  })

  it('names the methods of a REST path called with another one, in the contract’s error shape', async () => {
    const { token } = await createUserWithToken()
    const res = await SELF.fetch(`${ORIGIN}/api/v1/requests/sr_any`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } })
    expect(res.status).toBe(405)
    expect(res.headers.get('Allow')).toBe('GET, PUT, HEAD, OPTIONS')
    expect(await res.json()).toMatchObject({ code: 'method_not_allowed' })
    const list = await SELF.fetch(`${ORIGIN}/api/v1/requests`, { method: 'PATCH', headers: { Authorization: `Bearer ${token}` } })
    expect(list.headers.get('Allow')).toBe('POST, GET, HEAD, OPTIONS')
    const stop = await SELF.fetch(`${ORIGIN}/api/v1/requests/sr_any/stop`, { method: 'GET', headers: { Authorization: `Bearer ${token}` } })
    expect([stop.status, stop.headers.get('Allow')]).toEqual([405, 'POST, OPTIONS'])
  })
})

describe('CORS in production', () => {
  it('answers the preflight of a configured origin on /mcp and /api/v1, naming that origin', async () => {
    for (const path of ['/mcp', '/api/v1/requests']) {
      const res = await inProduction(path, preflight(ALLOWED))
      expect(res.status, path).toBe(204)
      expect(res.headers.get('Access-Control-Allow-Origin'), path).toBe(ALLOWED)
      expect(res.headers.get('Access-Control-Allow-Headers')?.toLowerCase(), path).toContain('authorization')
      expect(res.headers.get('Access-Control-Allow-Methods'), path).toContain('POST')
    }
  })

  it('lets the configured origin read the answer, with the challenge headers exposed', async () => {
    const res = await inProduction('/mcp', {
      method: 'POST',
      headers: { Origin: ALLOWED, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify(rpc('tools/list')),
    })
    expect(res.status).toBe(401)
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(ALLOWED)
    expect(res.headers.get('Access-Control-Expose-Headers')).toContain('WWW-Authenticate')
  })

  it('refuses any other origin: /mcp with a readable 403 after its preflight, /api/v1 without letting it read anything', async () => {
    // The preflight passes so that the refusal (test/mcp/foreign-origin.test.ts) can be read.
    const mcp = await inProduction('/mcp', preflight('https://attacker.example'))
    expect(mcp.status).toBe(204)
    expect(mcp.headers.get('Access-Control-Allow-Origin')).toBe('https://attacker.example')
    const refused = await inProduction('/mcp', {
      method: 'POST',
      headers: { Origin: 'https://attacker.example', 'Content-Type': 'application/json' },
      body: '{}',
    })
    expect(refused.status).toBe(403)
    const api = await inProduction('/api/v1/requests', preflight('https://attacker.example'))
    expect(api.headers.get('Access-Control-Allow-Origin')).toBeNull()
    const loopback = await inProduction('/mcp', {
      method: 'POST',
      headers: { Origin: 'http://localhost:6274', 'Content-Type': 'application/json' },
      body: '{}',
    })
    expect(loopback.status).toBe(403)
  })
})

describe('the /mcp resource metadata', () => {
  it('is also served at /.well-known/oauth-protected-resource', async () => {
    const root = await SELF.fetch(`${ORIGIN}/.well-known/oauth-protected-resource`)
    const nested = await SELF.fetch(`${ORIGIN}/.well-known/oauth-protected-resource/mcp`)
    expect(root.status).toBe(200)
    expect(await root.json()).toEqual(await nested.json())
  })

  it('is still what the 401 on /mcp points to', async () => {
    const res = await mcpPost(rpc('tools/list'))
    expect(res.headers.get('WWW-Authenticate')).toContain(`resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp"`)
  })
})
