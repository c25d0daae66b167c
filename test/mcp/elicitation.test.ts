// URL-mode elicitation of the approval page: a client that declared `elicitation: { url: {} }`
// at initialize gets an Mcp-Session-Id naming that capability, and then, when it creates or
// updates an auto_book request, an `elicitation/create` (mode url, the action_url) on the same
// response stream just before the tool's whole result. Other clients get the link in the result
// only. The request stays needs_approval whatever the client answers.
import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { dbOf } from '../../src/db/client'
import { markRevisionApproved, recordSeenRevision } from '../../src/db/seen-revisions'
import { approveRequest } from '../../src/request-use-cases/approve'
import { newKey } from '../helpers/api'
import { createUserWithToken } from '../helpers/auth'
import type { JsonBody } from '../helpers/json'
import { validSpec } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'
import { MCP_URL, rpc } from './mcp-client'

const PROTOCOL = '2025-11-25'

async function post(token: string, body: unknown, session?: string): Promise<{ status: number; headers: Headers; events: JsonBody[] }> {
  const headers = new Headers({
    Host: 'localhost:8787',
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': PROTOCOL,
    Authorization: `Bearer ${token}`,
  })
  if (session) headers.set('Mcp-Session-Id', session)
  const res = await SELF.fetch(MCP_URL, { method: 'POST', headers, body: JSON.stringify(body) })
  const text = await res.text()
  const events = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice(5)) as JsonBody)
  return { status: res.status, headers: res.headers, events }
}

const initialize = (token: string, elicitation: Record<string, unknown> | undefined) =>
  post(
    token,
    rpc('initialize', {
      protocolVersion: PROTOCOL,
      capabilities: elicitation ? { elicitation } : {},
      clientInfo: { name: 'elicitation-test', version: '1' },
    }),
  )

async function setUp() {
  await seedVenues()
  return (await createUserWithToken()).token
}

/** What the approval page does: the user sees the revision, then approves it. */
async function approveOnPage(requestId: string, revision: number, userId: string): Promise<void> {
  const db = dbOf(env.DB)
  await recordSeenRevision(db, requestId, revision, {}, Date.now())
  await approveRequest({ env }, { requestId, revision, userId })
  await markRevisionApproved(db, requestId, revision, Date.now())
}

const createCall = (mode: string) =>
  rpc('tools/call', { name: 'svc_create_request', arguments: { spec: validSpec({ mode }), idempotency_key: newKey() } })

describe('URL-mode elicitation of the approval page', () => {
  it('answers an initialize declaring URL mode with a session id naming it; others get none', async () => {
    const token = await setUp()
    const url = await initialize(token, { url: {} })
    expect(url.status).toBe(200)
    expect(url.headers.get('Mcp-Session-Id')).toMatch(/^tw-[0-9a-f-]{36}-elicit-url$/)
    expect((await initialize(token, {})).headers.get('Mcp-Session-Id')).toBeNull()
    expect((await initialize(token, { form: {} })).headers.get('Mcp-Session-Id')).toBeNull()
    expect((await initialize(token, undefined)).headers.get('Mcp-Session-Id')).toBeNull()
  })

  it('asks such a client to open the action_url, just before the whole tool result', async () => {
    const token = await setUp()
    const session = (await initialize(token, { url: {} })).headers.get('Mcp-Session-Id') ?? ''
    const { status, events } = await post(token, createCall('auto_book'), session)
    expect(status).toBe(200)
    expect(events).toHaveLength(2)
    const [ask, answer] = events
    const view = answer?.result.structuredContent
    expect(view.status).toBe('needs_approval')
    expect(ask).toMatchObject({
      jsonrpc: '2.0',
      id: expect.stringMatching(/^tw-elicit-/),
      method: 'elicitation/create',
      params: { mode: 'url', url: view.action_url, elicitationId: expect.any(String), message: expect.stringContaining('sign in') },
    })
    expect(answer?.result.content[0].text).toContain(view.action_url)

    // The client's answer is taken and changes nothing: approval happens only on the page.
    const accepted = await post(token, { jsonrpc: '2.0', id: ask?.id, result: { action: 'accept' } }, session)
    expect(accepted.status).toBe(202)
    const read = await post(token, rpc('tools/call', { name: 'svc_get_request', arguments: { request_id: view.id } }), session)
    expect(read.events.at(-1)?.result.structuredContent.status).toBe('needs_approval')
    expect(read.events).toHaveLength(1)
  })

  it('tells the client the approval is complete (notifications/elicitation/complete) on its next call', async () => {
    await seedVenues()
    const { token, userId } = await createUserWithToken()
    const session = (await initialize(token, { url: {} })).headers.get('Mcp-Session-Id') ?? ''
    const [ask, answer] = (await post(token, createCall('auto_book'), session)).events
    const view = answer?.result.structuredContent
    expect(ask?.params.elicitationId).toBe(`approval-${view.id}-r1`)
    const before = await post(token, rpc('tools/call', { name: 'svc_get_request', arguments: { request_id: view.id } }), session)
    expect(before.events.map((e) => e.method ?? 'result')).toEqual(['result'])

    await approveOnPage(view.id, 1, userId)
    const after = await post(token, rpc('tools/call', { name: 'svc_get_request', arguments: { request_id: view.id } }), session)
    expect(after.events.map((e) => e.method ?? 'result')).toEqual(['notifications/elicitation/complete', 'result'])
    expect(after.events[0]?.params).toEqual({ elicitationId: ask?.params.elicitationId })
    expect(after.events[1]?.result.structuredContent.status).toBe('active')
    // Only to a client that can know the id: one without URL mode gets the result alone.
    const plain = await post(token, rpc('tools/call', { name: 'svc_get_request', arguments: { request_id: view.id } }))
    expect(plain.events.map((e) => e.method ?? 'result')).toEqual(['result'])
  })

  it('asks again when an update sends the request back for approval', async () => {
    const token = await setUp()
    const session = (await initialize(token, { url: {} })).headers.get('Mcp-Session-Id') ?? ''
    const created = (await post(token, createCall('auto_book'), session)).events.at(-1)?.result.structuredContent
    const update = rpc('tools/call', {
      name: 'svc_update_request',
      arguments: { request_id: created.id, revision: 1, spec: validSpec({ mode: 'auto_book', party_size: 4 }), idempotency_key: newKey() },
    })
    const { events } = await post(token, update, session)
    expect(events.map((e) => e.method ?? 'result')).toEqual(['elicitation/create', 'result'])
    expect(events[0]?.params.url).toBe(events[1]?.result.structuredContent.action_url)
    expect(events[0]?.params.url).toContain('revision=2')
  })

  it('asks nothing of a client without URL mode, nor for a request that needs no approval', async () => {
    const token = await setUp()
    const plain = await post(token, createCall('auto_book'))
    expect(plain.events.map((e) => e.method ?? 'result')).toEqual(['result'])
    expect(plain.events[0]?.result.structuredContent.action_url).toEqual(expect.any(String))
    const session = (await initialize(token, { url: {} })).headers.get('Mcp-Session-Id') ?? ''
    const watching = await post(token, createCall('alert_only'), session)
    expect(watching.events.map((e) => e.method ?? 'result')).toEqual(['result'])
  })
})
