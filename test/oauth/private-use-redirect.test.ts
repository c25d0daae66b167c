// Native hosts' private-use scheme redirect URIs: Cursor registers
// cursor://anysphere.cursor-mcp/oauth/callback beside loopback ones and authorizes with it.
import { describe, expect, it } from 'vitest'
import {
  authorizePath,
  consent,
  formFields,
  MCP_RESOURCE,
  pkcePair,
  REDIRECT_URI,
  register,
  signedInBrowser,
  tokenRequest,
} from './oauth-client'

const CURSOR_REDIRECT = 'cursor://anysphere.cursor-mcp/oauth/callback'

describe('a private-use scheme redirect URI', () => {
  it('is accepted at authorize, named plainly on the consent page, and gets the code', async () => {
    const client = await register({ client_name: 'Cursor', redirect_uris: [CURSOR_REDIRECT, REDIRECT_URI] })
    const { web } = await signedInBrowser()
    const { verifier, challenge } = await pkcePair()
    const path = authorizePath({ client, challenge, method: 'S256', redirectUri: CURSOR_REDIRECT })
    const page = await web.get(path)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('opens <strong>cursor://</strong> links')
    expect(html).toContain('This sends access to whichever app handles cursor:// links.')
    // The form may lead to the app's scheme, and nowhere else new.
    expect(page.headers.get('content-security-policy')).toMatch(/form-action 'self' cursor:(;|$)/)
    formFields(html)

    const back = await consent(web, path, ['requests:read'])
    expect(`${back.protocol}//${back.host}${back.pathname}`).toBe(CURSOR_REDIRECT)
    const tokens = await tokenRequest({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code') ?? '',
      redirect_uri: CURSOR_REDIRECT,
      client_id: client.client_id,
      code_verifier: verifier,
      resource: MCP_RESOURCE,
    })
    expect(tokens.status).toBe(200)
    expect(tokens.body.access_token).toEqual(expect.any(String))
  })

  it('cannot be a web or script scheme in disguise', async () => {
    const res = await register({ redirect_uris: ['javascript://x/%0aalert(1)', REDIRECT_URI] }).catch((err: Error) => err)
    expect(res).toBeInstanceOf(Error)
  })
})
