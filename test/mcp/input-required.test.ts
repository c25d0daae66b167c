// Approval under MCP 2026-07-28: a client that declares URL-mode elicitation
// in its request envelope gets, for an auto_book create that needs approval, an input_required
// result asking it to open the approval page, with a signed requestState; the retry returns the
// request as it is then (still waiting, or active once approved), never asks twice, and a forged
// or foreign requestState is refused before any tool runs.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { approveRequest } from '../../src/request-use-cases/approve'
import { newKey } from '../helpers/api'
import { createUserWithToken } from '../helpers/auth'
import { validSpec } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'
import { mcpPost } from './mcp-client'

const VERSION = '2026-07-28'

function modernCall(args: Record<string, unknown>, capabilities: Record<string, unknown>, retry: Record<string, unknown> = {}) {
  const body = {
    jsonrpc: '2.0',
    id: 11,
    method: 'tools/call',
    params: {
      name: 'svc_create_request',
      arguments: args,
      ...retry,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': VERSION,
        'io.modelcontextprotocol/clientInfo': { name: 'host-2026', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': capabilities,
      },
    },
  }
  return { body, headers: { 'MCP-Protocol-Version': VERSION, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'svc_create_request' } }
}

async function call(token: string, args: Record<string, unknown>, capabilities: Record<string, unknown>, retry?: Record<string, unknown>) {
  const { body, headers } = modernCall(args, capabilities, retry)
  return mcpPost(body, { token, headers })
}

const URL_MODE = { elicitation: { url: {} } }

describe('approval under 2026-07-28', () => {
  it('asks a URL-mode client to open the approval page, and the retry returns the request as it is then', async () => {
    await seedVenues()
    const { token, userId } = await createUserWithToken()
    const args = { spec: validSpec({ mode: 'auto_book' }), idempotency_key: newKey() }

    const first = await call(token, args, URL_MODE)
    expect(first.status).toBe(200)
    const asked = first.message?.result
    expect(asked?.resultType).toBe('input_required')
    const elicitation = asked?.inputRequests?.approval
    expect(elicitation?.method).toBe('elicitation/create')
    expect(elicitation?.params).toMatchObject({
      mode: 'url',
      url: expect.stringMatching(/^http:\/\/localhost:8787\/requests\/sr_[^/]+\/approve/),
    })
    expect(elicitation?.params?.message).toContain('approve')
    expect(asked?.requestState).toEqual(expect.any(String))

    const retry = { requestState: asked?.requestState, inputResponses: { approval: { action: 'accept' } } }
    const waiting = await call(token, args, URL_MODE, retry)
    expect(waiting.message?.result?.resultType ?? 'complete').toBe('complete')
    const view = waiting.message?.result?.structuredContent
    expect(view).toMatchObject({ status: 'needs_approval', action_url: elicitation?.params?.url })

    await approveRequest({ env }, { requestId: view.id, revision: view.revision, userId })
    const approved = await call(token, args, URL_MODE, retry)
    expect(approved.message?.result?.structuredContent).toMatchObject({ id: view.id, status: 'active' })
  })

  it('refuses a forged requestState, and one minted for another connection, before the tool runs', async () => {
    await seedVenues()
    const alice = await createUserWithToken()
    const bob = await createUserWithToken()
    const args = { spec: validSpec({ mode: 'auto_book' }), idempotency_key: newKey() }
    const asked = (await call(alice.token, args, URL_MODE)).message?.result
    for (const [token, state] of [
      [alice.token, `${String(asked?.requestState).slice(0, -4)}AAAA`],
      [bob.token, asked?.requestState],
    ]) {
      const res = await call(String(token), args, URL_MODE, { requestState: state, inputResponses: {} })
      expect(res.message?.error?.code).toBe(-32602)
    }
    // Bob's refused retry created nothing.
    const rows = await env.DB.prepare('select count(*) as n from requests where user_id = ?').bind(bob.userId).first<{ n: number }>()
    expect(rows?.n).toBe(0)
  })

  it('answers as usual a client without URL mode, and a request needing no approval', async () => {
    await seedVenues()
    const { token } = await createUserWithToken()
    const noUrlMode = await call(
      token,
      { spec: validSpec({ mode: 'auto_book' }), idempotency_key: newKey() },
      { elicitation: { form: {} } },
    )
    expect(noUrlMode.message?.result?.structuredContent).toMatchObject({ status: 'needs_approval', action_url: expect.any(String) })
    const alertOnly = await call(token, { spec: validSpec({ mode: 'alert_only' }), idempotency_key: newKey() }, URL_MODE)
    expect(alertOnly.message?.result?.structuredContent).toMatchObject({ status: 'active' })
  })
})
