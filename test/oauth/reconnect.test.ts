// The same OAuth client authorized again for the same user (another device, a host that lost its
// tokens, a reinstall, the user clicking Reconnect). The connection is the user and the client
// together: the new grant joins it, every grant of it sees the connection's
// requests and reservations, and the earlier grants keep working until they expire or the user
// disconnects, which ends them all. Only an explicit disconnect or revocation revokes requests;
// a replayed refresh token ends only its own grant.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { SCOPES } from '../../src/core/scopes'
import app from '../../src/index'
import { newKey } from '../helpers/api'
import { insertReservation, validSpec } from '../helpers/requests'
import { seedVenues, VENUES } from '../helpers/venues'
import { callTool, mcpPost, rpc } from '../mcp/mcp-client'
import { authorizePath, type Connection, connect, consent, MCP_RESOURCE, ORIGIN, pkcePair, REDIRECT_URI, refresh } from './oauth-client'

async function ownerOf(requestId: string): Promise<string | undefined> {
  const row = await env.DB.prepare('select principal_id from requests where id = ?').bind(requestId).first<{ principal_id: string }>()
  return row?.principal_id
}

/** An alert_only request (active), an auto_book one (needs_approval) and a verified reservation. */
async function someRequests(c: Connection) {
  const active = await callTool(c.accessToken, 'svc_create_request', { spec: validSpec(), idempotency_key: newKey() })
  const waiting = await callTool(c.accessToken, 'svc_create_request', {
    spec: validSpec({ mode: 'auto_book', venue_ids: [VENUES.ny[1]?.venue_id] }),
    idempotency_key: newKey(),
  })
  const activeId = String(active.structured?.id)
  const waitingId = String(waiting.structured?.id)
  const reservationId = await insertReservation(activeId, { verified: true })
  return { activeId, waitingId, reservationId, oldOwner: (await ownerOf(activeId)) ?? '' }
}

const reconnect = (c: Connection) => connect({ browser: { web: c.web, userId: c.userId }, client: c.client })

const listedIds = async (token: string) =>
  ((await callTool(token, 'svc_list_requests', {})).structured?.requests ?? []).map((r: { id: string }) => r.id).sort()

describe('a second authorization of the same OAuth client', () => {
  it('joins the connection: both grants keep working and see the same requests and reservations', async () => {
    await seedVenues()
    const first = await connect()
    const { activeId, waitingId, reservationId } = await someRequests(first)

    const again = await reconnect(first)
    const list = await callTool(again.accessToken, 'svc_list_requests', {})
    expect(list.structured?.requests.map((r: { id: string }) => r.id).sort()).toEqual([activeId, waitingId].sort())
    expect((await callTool(again.accessToken, 'svc_get_request', { request_id: activeId })).structured?.status).toBe('active')
    const waiting = await callTool(again.accessToken, 'svc_get_request', { request_id: waitingId })
    expect(waiting.structured).toMatchObject({ status: 'needs_approval', action_url: expect.stringContaining(waitingId) })
    expect((await callTool(again.accessToken, 'svc_get_reservation', { reservation_id: reservationId })).structured).toMatchObject({
      reservation_id: reservationId,
      verified: true,
    })

    // The earlier grant lives on and sees the same requests; the assistants page lists one connection.
    expect(await listedIds(first.accessToken)).toEqual([activeId, waitingId].sort())
    const html = await (await first.web.get('/assistants')).text()
    expect([...html.matchAll(/href="\/assistants\/grants\/[^"]+\/revoke"/g)]).toHaveLength(1)
  })

  it('leaves the earlier grant working until the new consent’s code is exchanged', async () => {
    await seedVenues()
    const first = await connect()
    const { activeId } = await someRequests(first)
    const { challenge } = await pkcePair()
    await consent(first.web, authorizePath({ client: first.client, challenge, method: 'S256' }), [...SCOPES])
    expect((await callTool(first.accessToken, 'svc_get_request', { request_id: activeId })).structured?.status).toBe('active')
  })

  it('owns the requests as the connection, not as the grant that created them', async () => {
    await seedVenues()
    const first = await connect()
    const { activeId, oldOwner } = await someRequests(first)
    expect(oldOwner).toMatch(/^conn_/)
    const again = await reconnect(first)
    const created = await callTool(again.accessToken, 'svc_create_request', {
      spec: validSpec({ title: 'From the phone' }),
      idempotency_key: newKey(),
    })
    expect(await ownerOf(String(created.structured?.id))).toBe(oldOwner)
    expect(await listedIds(first.accessToken)).toContain(String(created.structured?.id))
    expect(await ownerOf(activeId)).toBe(oldOwner)
  })

  it('adopts what a grant from before shared connections owns', async () => {
    await seedVenues()
    const first = await connect()
    const { activeId, oldOwner } = await someRequests(first)
    const legacyOwner = `grant_${first.accessToken.split(':')[1]}`
    await env.DB.prepare('update requests set principal_id = ? where principal_id = ?').bind(legacyOwner, oldOwner).run()
    const again = await reconnect(first)
    expect(await ownerOf(activeId)).toBe(oldOwner)
    expect(await listedIds(again.accessToken)).toContain(activeId)
  })

  it('a replayed refresh token ends only its own grant: the other device and the requests carry on', async () => {
    await seedVenues()
    const first = await connect()
    const { activeId } = await someRequests(first)
    const again = await reconnect(first)
    const rotated = await refresh(first.client, first.refreshToken)
    expect(rotated.status).toBe(200)
    await refresh(first.client, rotated.body.refresh_token)
    // The first refresh token, two rotations old, is a replay: the first grant ends.
    expect((await refresh(first.client, first.refreshToken)).status).toBe(400)
    expect((await mcpPost(rpc('tools/list'), { token: rotated.body.access_token })).status).toBe(401)
    expect(await listedIds(again.accessToken)).toContain(activeId)
    const row = await env.DB.prepare('select status from requests where id = ?').bind(activeId).first<{ status: string }>()
    expect(row?.status).toBe('active')
  })

  it('shows the new grant a booking the earlier owner recorded while the connection moved', async () => {
    await seedVenues()
    const first = await connect()
    const { waitingId, oldOwner } = await someRequests(first)
    const again = await reconnect(first)
    const late = await insertReservation(waitingId, { verified: true, principalId: oldOwner })
    expect((await callTool(again.accessToken, 'svc_get_reservation', { reservation_id: late })).structured?.reservation_id).toBe(late)
  })

  it('answers a retried create with the same idempotency_key from the new grant, instead of a second request', async () => {
    await seedVenues()
    const first = await connect()
    const key = newKey()
    const spec = validSpec()
    const created = await callTool(first.accessToken, 'svc_create_request', { spec, idempotency_key: key })
    const again = await reconnect(first)
    const retried = await callTool(again.accessToken, 'svc_create_request', { spec, idempotency_key: key })
    expect(retried.structured?.id).toBe(created.structured?.id)
    expect((await callTool(again.accessToken, 'svc_list_requests', {})).structured?.requests).toHaveLength(1)
  })

  it('ends every grant of the connection and revokes its requests when the user disconnects the assistant', async () => {
    await seedVenues()
    const first = await connect()
    const { activeId } = await someRequests(first)
    const again = await reconnect(first)
    const page = await again.web.get('/assistants')
    const html = await page.text()
    const path = /href="(\/assistants\/grants\/[^"]+\/revoke)"/.exec(html)?.[1] ?? ''
    const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? ''
    await again.web.post(path, { _csrf: csrf })
    const row = await env.DB.prepare('select status from requests where id = ?').bind(activeId).first<{ status: string }>()
    expect(row?.status).toBe('revoked')
    expect((await mcpPost(rpc('tools/list'), { token: again.accessToken })).status).toBe(401)
    expect((await mcpPost(rpc('tools/list'), { token: first.accessToken })).status).toBe(401)
  })
})

/**
 * The worker's env with OAUTH_KV listing only the grants that existed when it was made, as a
 * Cloudflare KV list may for up to a minute after a write (lists are eventually consistent;
 * workerd's local KV is not, so the lag is imposed here). Reads and writes are the real KV's.
 */
async function envWhoseGrantListingLags(): Promise<Cloudflare.Env> {
  const listed = new Set((await env.OAUTH_KV.list({ prefix: 'grant:' })).keys.map((key) => key.name))
  const kv = env.OAUTH_KV
  const lagging = new Proxy(kv, {
    get(target, property) {
      if (property === 'list') {
        return async (options?: KVNamespaceListOptions) => {
          const answer = await target.list(options)
          return { ...answer, keys: answer.keys.filter((key) => !key.name.startsWith('grant:') || listed.has(key.name)) }
        }
      }
      const value: unknown = Reflect.get(target, property)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return { ...env, OAUTH_KV: lagging }
}

describe('a second authorization whose new grant the grant listing does not show yet', () => {
  it('still sees the connection: its principal comes with the grant, not from the listing', async () => {
    await seedVenues()
    const first = await connect()
    const { activeId, waitingId } = await someRequests(first)

    const lagging = await envWhoseGrantListingLags() // made before the consent: the new grant is never listed
    const { verifier, challenge } = await pkcePair()
    const back = await consent(first.web, authorizePath({ client: first.client, challenge, method: 'S256' }), [...SCOPES])
    const ctx = createExecutionContext()
    const exchange = new Request(`${ORIGIN}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code') ?? '',
        redirect_uri: REDIRECT_URI,
        client_id: first.client.client_id,
        code_verifier: verifier,
        resource: MCP_RESOURCE,
      }),
    })
    const answer = await app.fetch(exchange, lagging, ctx)
    await waitOnExecutionContext(ctx)
    expect(answer.status).toBe(200)
    const { access_token: accessToken } = (await answer.json()) as { access_token: string }

    const list = await callTool(accessToken, 'svc_list_requests', {})
    expect(list.structured?.requests.map((r: { id: string }) => r.id).sort()).toEqual([activeId, waitingId].sort())
    expect((await callTool(accessToken, 'svc_get_request', { request_id: activeId })).structured?.status).toBe('active')
    expect((await mcpPost(rpc('tools/list'), { token: first.accessToken })).status).toBe(200)
  })
})

describe('another OAuth client of the same user', () => {
  it('is another connection: it sees none of the first one’s requests, and the first keeps working', async () => {
    await seedVenues()
    const first = await connect()
    const { activeId } = await someRequests(first)
    const other = await connect({ browser: { web: first.web, userId: first.userId } })
    expect(other.client.client_id).not.toBe(first.client.client_id)
    expect((await callTool(other.accessToken, 'svc_list_requests', {})).structured?.requests).toEqual([])
    expect((await callTool(first.accessToken, 'svc_get_request', { request_id: activeId })).structured?.status).toBe('active')
  })
})
