// Issue 27, item 7: dynamic client registration is limited per client address (30 an hour; an
// IPv6 /64 counts as one address). Before, any number of clients could be registered.
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { ORIGIN, REDIRECT_URI } from './oauth-client'

function registerFrom(address: string): Promise<Response> {
  return SELF.fetch(`${ORIGIN}/oauth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': address },
    body: JSON.stringify({ client_name: 'Flood', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' }),
  })
}

describe('client registration', () => {
  it('answers 429 with Retry-After after 30 registrations an hour from one address (or /64)', async () => {
    for (let i = 1; i <= 30; i++) expect((await registerFrom(`2001:db8:5:5::${i.toString(16)}`)).status).toBe(201)
    const refused = await registerFrom('2001:db8:5:5:1:2:3:4')
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(await refused.json()).toMatchObject({ error: 'too_many_requests' })
    expect((await registerFrom('198.51.100.30')).status).toBe(201)
  }, 60_000)
})
