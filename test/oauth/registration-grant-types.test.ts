// Dynamic registration of a client that lists grant types this server does not issue beside the
// ones it does (older VS Code adds the device code grant): it is registered with the supported
// ones, says so in the answer, and connects; a client listing none of them is still refused.
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { authorizePath, ORIGIN, pkcePair, REDIRECT_URI, register, signedInBrowser } from './oauth-client'

const DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code'

describe('registration with grant types this server does not issue', () => {
  it('registers the client with the supported ones, and its authorization goes on to consent', async () => {
    const client = await register({ grant_types: ['authorization_code', 'refresh_token', DEVICE_CODE] })
    expect((client as unknown as { grant_types: string[] }).grant_types).toEqual(['authorization_code', 'refresh_token'])
    const { web } = await signedInBrowser()
    const { challenge } = await pkcePair()
    const consent = await web.get(authorizePath({ client, challenge, method: 'S256' }))
    expect(consent.status).toBe(200)
    expect(await consent.text()).toContain('name="decision"')
  })

  it('still refuses a client that lists none of them, saying which', async () => {
    const res = await SELF.fetch(`${ORIGIN}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Device only',
        redirect_uris: [REDIRECT_URI],
        token_endpoint_auth_method: 'none',
        grant_types: [DEVICE_CODE],
        response_types: [],
      }),
    })
    expect(res.status).toBe(400)
    const body = (await res.json()) as { error: string; error_description: string }
    expect(body.error).toBe('invalid_client_metadata')
    expect(body.error_description).toContain(DEVICE_CODE)
  })
})
