// Registration, the authorization request (PKCE S256 from every client, exact redirect URIs),
// sign-in and consent on the service's pages, and the code exchange.
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { WebClient } from '../web/web-client'
import {
  authorizePath,
  consent,
  exchangeCode,
  formFields,
  MCP_RESOURCE,
  ORIGIN,
  pkcePair,
  REDIRECT_URI,
  register,
  signedInBrowser,
} from './oauth-client'

function expectClientError(location: string | null, error: string): URL {
  expect(location).not.toBeNull()
  const url = new URL(location ?? '')
  expect(url.origin + url.pathname).toBe(REDIRECT_URI)
  expect(url.searchParams.get('error')).toBe(error)
  expect(url.searchParams.get('state')).toBe('state-123')
  expect(url.searchParams.get('iss')).toBe(ORIGIN)
  expect(url.searchParams.has('code')).toBe(false)
  return url
}

describe('dynamic client registration', () => {
  it('registers a public client with its redirect URI and no secret', async () => {
    const client = await register()
    expect(client.client_id).toEqual(expect.any(String))
    expect(client.client_secret).toBeUndefined()
    expect(client.redirect_uris).toEqual([REDIRECT_URI])
  })

  it('refuses a remote plain-http redirect URI', async () => {
    const res = await SELF.fetch(`${ORIGIN}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'x', redirect_uris: ['http://evil.example/cb'], token_endpoint_auth_method: 'none' }),
    })
    expect(res.status).toBe(400)
  })
})

describe('the authorization request', () => {
  it('sends a signed-out user to sign in, then back to the consent page', async () => {
    const client = await register()
    const { challenge } = await pkcePair()
    const path = authorizePath({ client, challenge, method: 'S256' })
    const web = new WebClient(ORIGIN)
    const first = await web.get(path)
    expect(first.status).toBe(303)
    expect(first.headers.get('location')).toBe(`/signin?next=${encodeURIComponent(path)}`)

    const email = `user-${crypto.randomUUID()}@example.com`
    await web.signUp(email, 'correct horse battery')
    const signedIn = await web.signIn(email, 'correct horse battery', path)
    expect(signedIn.headers.get('location')).toBe(path)

    const page = await web.get(path)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('Allow Test Assistant to use your Tablewatch account?')
    expect(html).toContain('<strong>127.0.0.1</strong>')
    expect(html).toContain('This sends access to an app on your computer.')
    for (const scope of ['restaurants:read', 'requests:read', 'requests:write', 'reservations:read']) {
      expect(html).toContain(`value="${scope}"`)
    }
    expect(page.headers.get('X-Frame-Options')).toBe('DENY')
    expect(page.headers.get('Content-Security-Policy')).toContain("form-action 'self' http://127.0.0.1:33418")
  })

  it('escapes the name a client gave itself', async () => {
    const client = await register({ client_name: '<script>alert(1)</script>' })
    const { web } = await signedInBrowser()
    const { challenge } = await pkcePair()
    const html = await (await web.get(authorizePath({ client, challenge, method: 'S256' }))).text()
    expect(html).not.toContain('<script>alert(1)</script>')
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
  })

  it('refuses a request without PKCE, back at the client with invalid_request', async () => {
    const client = await register()
    const { web } = await signedInBrowser()
    const res = await web.get(authorizePath({ client }))
    expect(res.status).toBe(302)
    expectClientError(res.headers.get('location'), 'invalid_request')
  })

  it('refuses the plain PKCE method, and a challenge without a method (plain by default)', async () => {
    const client = await register()
    const { web } = await signedInBrowser()
    const { challenge } = await pkcePair()
    for (const method of ['plain', undefined]) {
      const res = await web.get(authorizePath({ client, challenge, method }))
      expectClientError(res.headers.get('location'), 'invalid_request')
    }
  })

  it('requires PKCE from a confidential client too', async () => {
    const client = await register({ token_endpoint_auth_method: 'client_secret_basic' })
    expect(client.client_secret).toEqual(expect.any(String))
    const { web } = await signedInBrowser()
    const res = await web.get(authorizePath({ client }))
    const url = expectClientError(res.headers.get('location'), 'invalid_request')
    expect(url.searchParams.get('error_description')).toContain('S256')
  })

  it('never redirects to a redirect URI the client did not register', async () => {
    const client = await register()
    const { web } = await signedInBrowser()
    const { challenge } = await pkcePair()
    const res = await web.get(authorizePath({ client, challenge, method: 'S256', redirectUri: 'http://127.0.0.1:33418/elsewhere' }))
    expect(res.status).toBe(400)
    expect(res.headers.get('location')).toBeNull()
    expect(await res.text()).toContain('This connection request cannot go on')
  })

  it('refuses a resource the server does not protect', async () => {
    const client = await register()
    const { web } = await signedInBrowser()
    const { challenge } = await pkcePair()
    const res = await web.get(authorizePath({ client, challenge, method: 'S256', resource: `${ORIGIN}/elsewhere` }))
    expectClientError(res.headers.get('location'), 'invalid_target')
  })
})

describe('consent', () => {
  it('sends access_denied back to the client when the user denies', async () => {
    const client = await register()
    const { web } = await signedInBrowser()
    const { challenge } = await pkcePair()
    const path = authorizePath({ client, challenge, method: 'S256' })
    const { handle, csrf } = formFields(await (await web.get(path)).text())
    const res = await web.post(path, { handle, _csrf: csrf, decision: 'deny' })
    expect(res.status).toBe(302)
    expectClientError(res.headers.get('location'), 'access_denied')
  })

  it('grants only what the user ticked, and always requests:read for MCP', async () => {
    const client = await register()
    const { web } = await signedInBrowser()
    const { verifier, challenge } = await pkcePair()
    const back = await consent(web, authorizePath({ client, challenge, method: 'S256' }), ['restaurants:read'])
    expect(back.searchParams.get('state')).toBe('state-123')
    expect(back.searchParams.get('iss')).toBe(ORIGIN)
    const tokens = await exchangeCode(client, back.searchParams.get('code') ?? '', verifier)
    expect(tokens.status).toBe(200)
    expect(String(tokens.body.scope).split(' ').sort()).toEqual(['requests:read', 'restaurants:read'])
  })

  it('grants at most what the client asked for: a posted form ticking other valid scopes grants none of them', async () => {
    const client = await register()
    const { web } = await signedInBrowser()
    const { verifier, challenge } = await pkcePair()
    const path = authorizePath({ client, challenge, method: 'S256', scope: 'restaurants:read' })
    const back = await consent(web, path, ['restaurants:read', 'requests:write', 'reservations:read'])
    const tokens = await exchangeCode(client, back.searchParams.get('code') ?? '', verifier)
    expect(tokens.status).toBe(200)
    expect(String(tokens.body.scope).split(' ').sort()).toEqual(['requests:read', 'restaurants:read'])
  })

  it('offers all four scopes, ticked, when the client asked for none; the user may still untick them', async () => {
    const client = await register()
    const { web } = await signedInBrowser()
    const { challenge } = await pkcePair()
    const page = await (await web.get(authorizePath({ client, challenge, method: 'S256', scope: null }))).text()
    const ticked = [...page.matchAll(/<input type="checkbox" name="scope" value="([^"]+)"[^>]*checked/g)].map((m) => m[1]).sort()
    expect(ticked).toEqual(['requests:read', 'requests:write', 'reservations:read', 'restaurants:read'])
    const asked = await (await web.get(authorizePath({ client, challenge, method: 'S256', scope: 'restaurants:read' }))).text()
    const askedTicked = [...asked.matchAll(/<input type="checkbox" name="scope" value="([^"]+)"[^>]*checked/g)].map((m) => m[1]).sort()
    expect(askedTicked).toEqual(['requests:read', 'restaurants:read'])
  })

  it('accepts a consent form once, and only from the browser that opened it', async () => {
    const client = await register()
    const { web } = await signedInBrowser()
    const { challenge } = await pkcePair()
    const path = authorizePath({ client, challenge, method: 'S256' })
    const { handle, csrf } = formFields(await (await web.get(path)).text())

    const stranger = new WebClient(ORIGIN)
    await stranger.newUser()
    const strangerCsrf = await stranger.csrfFrom('/assistants')
    const foreign = await stranger.post(path, { handle, _csrf: strangerCsrf, decision: 'approve', scope: 'requests:read' })
    expect(foreign.status).toBe(400)

    const approved = await web.post(path, { handle, _csrf: csrf, decision: 'approve', scope: 'requests:read' })
    expect(approved.status).toBe(302)
    const replay = await web.post(path, { handle, _csrf: csrf, decision: 'approve', scope: 'requests:read' })
    expect(replay.status).toBe(400)
  })
})

describe('the code exchange', () => {
  it('issues a 15-minute access token and a refresh token for the MCP resource', async () => {
    const client = await register()
    const { web } = await signedInBrowser()
    const { verifier, challenge } = await pkcePair()
    const back = await consent(web, authorizePath({ client, challenge, method: 'S256' }), ['requests:read'])
    const tokens = await exchangeCode(client, back.searchParams.get('code') ?? '', verifier)
    expect(tokens.status).toBe(200)
    expect(tokens.body).toMatchObject({ token_type: 'bearer', expires_in: 900, resource: MCP_RESOURCE })
    expect(tokens.body.access_token).toEqual(expect.any(String))
    expect(tokens.body.refresh_token).toEqual(expect.any(String))
  })

  it('refuses a wrong PKCE verifier', async () => {
    const client = await register()
    const { web } = await signedInBrowser()
    const { challenge } = await pkcePair()
    const other = await pkcePair()
    const back = await consent(web, authorizePath({ client, challenge, method: 'S256' }), ['requests:read'])
    const tokens = await exchangeCode(client, back.searchParams.get('code') ?? '', other.verifier)
    expect(tokens.status).toBe(400)
    expect(tokens.body.error).toBe('invalid_grant')
  })

  it('refuses a missing PKCE verifier', async () => {
    const client = await register()
    const { web } = await signedInBrowser()
    const { challenge } = await pkcePair()
    const back = await consent(web, authorizePath({ client, challenge, method: 'S256' }), ['requests:read'])
    const tokens = await exchangeCode(client, back.searchParams.get('code') ?? '', '')
    expect(tokens.status).toBe(400)
    expect(['invalid_grant', 'invalid_request']).toContain(tokens.body.error)
  })

  it('accepts an authorization code only once', async () => {
    const client = await register()
    const { web } = await signedInBrowser()
    const { verifier, challenge } = await pkcePair()
    const back = await consent(web, authorizePath({ client, challenge, method: 'S256' }), ['requests:read'])
    const code = back.searchParams.get('code') ?? ''
    expect((await exchangeCode(client, code, verifier)).status).toBe(200)
    const again = await exchangeCode(client, code, verifier)
    expect(again.status).toBe(400)
    expect(again.body.error).toBe('invalid_grant')
  })
})
