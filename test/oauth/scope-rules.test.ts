// What the consent page offers for the scopes a client asks for: asking for none of Tablewatch's
// scopes (no scope, an empty one, or only offline_access) is one request and gets one offer, all
// four ticked; offline_access is honoured (refresh tokens are always issued), never reported as
// unknown, and never narrows what is offered.
import { describe, expect, it } from 'vitest'
import { authorizePath, pkcePair, register, signedInBrowser } from './oauth-client'

const ALL = ['requests:read', 'requests:write', 'reservations:read', 'restaurants:read']

async function offered(scope: string | null): Promise<{ ticked: string[]; page: string }> {
  const client = await register()
  const { web } = await signedInBrowser()
  const { challenge } = await pkcePair()
  const page = await (await web.get(authorizePath({ client, challenge, method: 'S256', scope }))).text()
  const ticked = [...page.matchAll(/<input type="checkbox" name="scope" value="([^"]+)"[^>]*checked/g)].map((m) => String(m[1])).sort()
  return { ticked, page }
}

describe('the scopes the consent page offers', () => {
  it.each([
    ['no scope', null],
    ['an empty scope', ''],
    ['only offline_access', 'offline_access'],
  ])('offers all four for %s', async (_label, scope) => {
    const { ticked, page } = await offered(scope)
    expect(ticked).toEqual(ALL)
    expect(page).not.toContain('which Tablewatch does not have')
  })

  it('takes offline_access beside a Tablewatch scope as that scope alone, without calling it unknown', async () => {
    const { ticked, page } = await offered('offline_access restaurants:read')
    expect(ticked).toEqual(['requests:read', 'restaurants:read'])
    expect(page).not.toContain('offline_access')
  })

  it('still names a scope it does not have', async () => {
    const { page } = await offered('restaurants:read calendar:write')
    expect(page).toContain('It also asked for calendar:write, which Tablewatch does not have')
  })
})
