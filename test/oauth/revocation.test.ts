// RFC 7009 revocation at the token endpoint revokes a grant's requests only when that grant, of
// its real owner, really ended; a forged token naming someone else's grant changes nothing. What
// counts as a revocation is the library's own reading: a `token` and no, or an empty, `grant_type`.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { newKey } from '../helpers/api'
import { validSpec } from '../helpers/requests'
import { seedVenues, VENUES } from '../helpers/venues'
import { callTool, mcpPost, rpc } from '../mcp/mcp-client'
import { connect, register, tokenRequest } from './oauth-client'

async function requestStatus(id: string): Promise<string | undefined> {
  const row = await env.DB.prepare('select status from requests where id = ?').bind(id).first<{ status: string }>()
  return row?.status
}

async function victimWithRequest() {
  await seedVenues()
  const victim = await connect()
  const created = await callTool(victim.accessToken, 'svc_create_request', { spec: validSpec(), idempotency_key: newKey() })
  const requestId = String(created.structured?.id)
  expect(await requestStatus(requestId)).toBe('active')
  // The grant id is in plain text in every token the library issues: userId:grantId:secret.
  const [userId, grantId] = victim.accessToken.split(':')
  return { victim, requestId, userId: userId ?? '', grantId: grantId ?? '' }
}

describe('RFC 7009 revocation at /oauth/token', () => {
  it.each([
    ['the victim as user', (v: { userId: string; grantId: string }) => `${v.userId}:${v.grantId}:forged-secret`],
    ['another user', (v: { userId: string; grantId: string }) => `usr_someoneelse:${v.grantId}:forged-secret`],
  ])("a forged token naming another user's grant (%s) leaves their requests alone", async (_label, forge) => {
    const target = await victimWithRequest()
    const attacker = await register()
    const answer = await tokenRequest({ token: forge(target), token_type_hint: 'refresh_token', client_id: attacker.client_id })
    expect(answer.status).toBe(200) // RFC 7009: the same answer for any token
    expect(await requestStatus(target.requestId)).toBe('active')
    expect((await mcpPost(rpc('tools/list'), { token: target.victim.accessToken })).status).toBe(200)
  })

  it("another client's real refresh token leaves the grant and its requests alone", async () => {
    const target = await victimWithRequest()
    const attacker = await register()
    const answer = await tokenRequest({ token: target.victim.refreshToken, client_id: attacker.client_id })
    expect(answer.status).toBe(200)
    expect(await requestStatus(target.requestId)).toBe('active')
  })

  it("an expired or revoked access token of the grant leaves the grant's requests alone", async () => {
    const target = await victimWithRequest()
    const byOwner = await tokenRequest({ token: target.victim.accessToken, client_id: target.victim.client.client_id })
    expect(byOwner.status).toBe(200)
    expect(await requestStatus(target.requestId)).toBe('active')
  })

  it('the owning client revoking its refresh token ends the grant and revokes its requests', async () => {
    const target = await victimWithRequest()
    const answer = await tokenRequest({ token: target.victim.refreshToken, client_id: target.victim.client.client_id })
    expect(answer.status).toBe(200)
    expect(await requestStatus(target.requestId)).toBe('revoked')
  })

  it.each([
    ['no grant_type', {}],
    ['an empty grant_type', { grant_type: '' }],
  ])('a revocation with %s ends the grant and its requests, an approved auto_book one included', async (_label, extra) => {
    await seedVenues()
    const victim = await connect()
    const created = await callTool(victim.accessToken, 'svc_create_request', {
      spec: validSpec({ mode: 'auto_book', venue_ids: [VENUES.ny[1]?.venue_id] }),
      idempotency_key: newKey(),
    })
    const id = String(created.structured?.id)
    const actionPath = new URL(String(created.structured?.action_url)).pathname
    const approved = await victim.web.post(`/requests/${id}/approve`, { revision: '1', _csrf: await victim.web.csrfFrom(actionPath) })
    expect(approved.status).toBe(303)
    expect(await requestStatus(id)).toBe('active')
    const answer = await tokenRequest({ ...extra, token: victim.refreshToken, client_id: victim.client.client_id })
    expect(answer.status).toBe(200)
    expect(await requestStatus(id)).toBe('revoked')
    expect((await mcpPost(rpc('tools/list'), { token: victim.accessToken })).status).toBe(401)
  })
})
