// A host reconnecting: the same OAuth client consents again for the same user (its tokens were
// lost, a refresh failed, or the user clicked Reconnect). The connection is the user and the
// client together, so the new grant takes over the earlier grant's requests and reservations,
// which stay visible and active; the earlier grant then ends. Only an explicit disconnect or
// revocation revokes requests.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { Principal } from '../../src/core/principal'
import { SCOPES } from '../../src/core/scopes'
import app from '../../src/index'
import { depsOf } from '../../src/requests/deps'
import { getRequest, listRequests } from '../../src/requests/read'
import { getReservation } from '../../src/requests/reservation'
import { newKey } from '../helpers/api'
import { insertReservation, validSpec } from '../helpers/requests'
import { seedVenues, VENUES } from '../helpers/venues'
import { callTool, mcpPost, rpc } from '../mcp/mcp-client'
import { authorizePath, type Connection, connect, consent, MCP_RESOURCE, ORIGIN, pkcePair, REDIRECT_URI } from './oauth-client'

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

describe('a host reconnecting with the same OAuth client', () => {
  it('keeps the requests and reservations: the new tokens see them, still active and still waiting for approval', async () => {
    await seedVenues()
    const first = await connect()
    const { activeId, waitingId, reservationId } = await someRequests(first)

    const again = await reconnect(first)
    const list = await callTool(again.accessToken, 'svc_list_requests', {})
    expect(list.structured?.requests.map((r: { id: string }) => r.id).sort()).toEqual([activeId, waitingId].sort())
    expect((await callTool(again.accessToken, 'svc_get_request', { request_id: activeId })).structured?.status).toBe('active')
    const waiting = await callTool(again.accessToken, 'svc_get_request', { request_id: waitingId })
    expect(waiting.structured).toMatchObject({ status: 'needs_approval', action_url: expect.stringContaining(waitingId) })
    expect(waiting.structured?.trace.map((t: { message: string }) => t.message).join(' ')).toContain('The assistant reconnected')
    expect((await callTool(again.accessToken, 'svc_get_reservation', { reservation_id: reservationId })).structured).toMatchObject({
      reservation_id: reservationId,
      verified: true,
    })

    // The earlier grant ended: its tokens are refused, and the assistants page lists one connection.
    expect((await mcpPost(rpc('tools/list'), { token: first.accessToken })).status).toBe(401)
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

  it('leaves nothing to the earlier grant: even a token of it that still validated would see no request', async () => {
    await seedVenues()
    const first = await connect()
    const { activeId, reservationId, oldOwner } = await someRequests(first)
    await reconnect(first)
    const leftover: Principal = {
      kind: 'oauth',
      userId: first.userId,
      principalId: oldOwner,
      scopes: [...SCOPES],
      expiresAt: Date.now() + 86_400_000,
    }
    const deps = depsOf(env)
    expect((await listRequests(deps, leftover, { limit: 20 })).requests).toEqual([])
    await expect(getRequest(deps, leftover, activeId)).rejects.toMatchObject({ code: 'request_not_found' })
    await expect(getReservation(deps, leftover, reservationId)).rejects.toMatchObject({ code: 'reservation_not_found' })
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

  it('revokes the carried requests when the user then disconnects the assistant', async () => {
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

describe('a reconnect whose new grant the grant listing does not show yet', () => {
  it('still carries the requests over: the connection is read from the new access token itself', async () => {
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
    expect((await mcpPost(rpc('tools/list'), { token: first.accessToken })).status).toBe(401)
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
