// A host that registered again (a connector removed and re-added, a fresh mcp-remote cache) is a
// new OAuth client, so a new connection. When it looks like one the user connected before (the
// same name and redirect URIs), the consent page offers to continue that connection, naming its
// requests; only if the user chooses it do the requests move, and the earlier grants end.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { newKey } from '../helpers/api'
import { validSpec } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'
import { callTool, mcpPost, rpc } from '../mcp/mcp-client'
import type { WebClient } from '../web/web-client'
import {
  authorizePath,
  type Connection,
  connect,
  exchangeCode,
  formFields,
  pkcePair,
  type RegisteredClient,
  register,
} from './oauth-client'

const SCOPES = ['restaurants:read', 'requests:read', 'requests:write', 'reservations:read']

const listedIds = async (token: string) =>
  ((await callTool(token, 'svc_list_requests', {})).structured?.requests ?? []).map((r: { id: string }) => r.id).sort()

async function connectionWithRequests(): Promise<{ first: Connection; ids: string[] }> {
  await seedVenues()
  const first = await connect()
  const ids: string[] = []
  for (const title of ['Dinner with Sam', 'Birthday at the bar']) {
    const created = await callTool(first.accessToken, 'svc_create_request', { spec: validSpec({ title }), idempotency_key: newKey() })
    ids.push(String(created.structured?.id))
  }
  return { first, ids: ids.sort() }
}

/** Consent for `client` in the user's browser, with the continue choice as given; returns the new tokens. */
async function consentAndExchange(web: WebClient, client: RegisteredClient, continues?: string) {
  const { verifier, challenge } = await pkcePair()
  const path = authorizePath({ client, challenge, method: 'S256' })
  const page = await web.get(path)
  const html = await page.text()
  const { handle, csrf } = formFields(html)
  const form: Record<string, string | string[]> = { handle, _csrf: csrf, decision: 'approve', scope: SCOPES }
  if (continues !== undefined) form.continues = continues
  const answer = await web.post(path, form)
  const code = new URL(answer.headers.get('location') ?? 'http://x/').searchParams.get('code')
  const tokens = code ? await exchangeCode(client, code, verifier) : null
  return { html, status: answer.status, accessToken: String(tokens?.body.access_token ?? '') }
}

describe('a host that registered again', () => {
  it('is offered the earlier connection of the same name and redirect URIs, with its requests named', async () => {
    const { first } = await connectionWithRequests()
    const again = await register()
    expect(again.client_id).not.toBe(first.client.client_id)
    const { challenge } = await pkcePair()
    const html = await (await first.web.get(authorizePath({ client: again, challenge, method: 'S256' }))).text()
    expect(html).toContain('You connected an app called Test Assistant before')
    expect(html).toContain(`name="continues" value="${first.client.client_id}"`)
    expect(html).toContain('with its 2 requests')
    expect(html).toContain('“Dinner with Sam”')
    expect(html).toContain('“Birthday at the bar”')
    // A new connection is what the page starts with.
    expect(html).toMatch(/<input type="radio" name="continues" value="" checked/)
  })

  it('sees the earlier requests once the user chooses to continue, and the earlier grant ends', async () => {
    const { first, ids } = await connectionWithRequests()
    const again = await register()
    const next = await consentAndExchange(first.web, again, first.client.client_id)
    expect(await listedIds(next.accessToken)).toEqual(ids)
    expect((await callTool(next.accessToken, 'svc_get_request', { request_id: ids[0] })).structured?.status).toBe('active')
    expect((await mcpPost(rpc('tools/list'), { token: first.accessToken })).status).toBe(401)
    const rows = await env.DB.prepare('select status from requests where id in (?, ?)').bind(ids[0], ids[1]).all<{ status: string }>()
    expect(rows.results.map((r) => r.status)).toEqual(['active', 'active'])
  })

  it('shares nothing when the user starts a new connection: the earlier one keeps its requests and works', async () => {
    const { first, ids } = await connectionWithRequests()
    const again = await register()
    const next = await consentAndExchange(first.web, again, '')
    expect(await listedIds(next.accessToken)).toEqual([])
    expect(await listedIds(first.accessToken)).toEqual(ids)
    // Without the field at all (an older form), nothing is shared either.
    const third = await consentAndExchange(first.web, await register(), undefined)
    expect(await listedIds(third.accessToken)).toEqual([])
    expect(await listedIds(first.accessToken)).toEqual(ids)
  })

  it('refuses a form naming a connection the page could not offer, and shares nothing', async () => {
    const { first, ids } = await connectionWithRequests()
    const other = await connect({ browser: { web: first.web, userId: first.userId }, client: await register({ client_name: 'Other App' }) })
    const again = await register()
    const forged = await consentAndExchange(first.web, again, other.client.client_id)
    expect(forged.status).toBe(400)
    expect(forged.accessToken).toBe('')
    expect(await listedIds(first.accessToken)).toEqual(ids)
    expect((await mcpPost(rpc('tools/list'), { token: other.accessToken })).status).toBe(200)
  })

  it('offers nothing for another name or other redirect URIs, or another user’s connection', async () => {
    const { first } = await connectionWithRequests()
    const { challenge } = await pkcePair()
    const renamed = await register({ client_name: 'Test Assistant 2' })
    const elsewhere = await register({ redirect_uris: ['http://127.0.0.1:33418/callback', 'http://127.0.0.1:9/other'] })
    for (const client of [renamed, elsewhere]) {
      const html = await (await first.web.get(authorizePath({ client, challenge, method: 'S256' }))).text()
      expect(html).toContain('name="handle"')
      expect(html).not.toContain('name="continues"')
    }
    const stranger = await connect({ client: await register() })
    const html = await (await stranger.web.get(authorizePath({ client: await register(), challenge, method: 'S256' }))).text()
    expect(html).not.toContain('name="continues"')
  })
})
