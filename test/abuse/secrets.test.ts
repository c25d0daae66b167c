// No secret ever leaves the service: a user signs up with a password, connects the platform
// with another, and drives every REST route (good calls and bad ones) and the watcher. No
// response body or header, no console line, and no D1 row holds a token, a password or a
// platform credential in the clear; the platform token is stored sealed.
import { env, runDurableObjectAlarm, runInDurableObject, SELF } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { CSRF_HEADER } from '../../src/auth/csrf'
import { platformSessionOf } from '../../src/executors/platform-session'
import { depsOf, requestObject } from '../../src/runtime/deps'
import { newKey } from '../helpers/api'
import { randomBase62 } from '../helpers/auth'
import { insertReservation, validSpec } from '../helpers/requests'
import { DAY_MS, dateIn, expiresIn, NEW_YORK } from '../helpers/time'
import { seedVenues } from '../helpers/venues'
import { WebClient } from '../web/web-client'
import { type Answer, bearer, jsonHeaders, send } from './support/http'
import { expectNoLeaks, findLeaks, keepSecret, recordResponse, watchConsole } from './support/leaks'
import { mcpSend, toolCall } from './support/mcp'
import { dumpAllTables } from './support/tables'
import { secretToken } from './support/users'

const servicePassword = keepSecret(`service-pw-${randomBase62(20)}`)
const platformPassword = keepSecret(`platform-pw-${randomBase62(20)}`)
/** Pomelo Garden in the sandbox: found through restaurant search, then watched. */
const SANDBOX_VENUE = 60105

let client: WebClient
let userId: string
let token: string

/** A page or JSON answer of the web app, kept for the secrets check like the API's. */
async function recorded(label: string, res: Response): Promise<Response> {
  const text = await res.text()
  recordResponse(label, res.status, res.headers, text)
  return new Response(text, { status: res.status, headers: res.headers })
}

// Each test signs up its own user (recorded for the secrets check) and gets its own token.
beforeEach(async () => {
  watchConsole()
  await seedVenues()
  keepSecret(env.PLATFORM_API_KEY)
  keepSecret(env.PLATFORM_TOKEN_KEY)
  client = new WebClient()
  const email = `leaks-${crypto.randomUUID()}@example.com`
  await recorded('sign up', await client.signUp(email, servicePassword))
  await recorded('sign in with a wrong password', await client.signIn(email, `${servicePassword}-wrong`))
  expect((await recorded('sign in', await client.signIn(email, servicePassword))).status).toBe(303)
  const row = await env.DB.prepare('select id from users where email = ?').bind(email).first<{ id: string }>()
  userId = row?.id ?? ''
  token = (await secretToken(userId)).token
})

/** Connects through the settings JSON endpoint, with the web session and its CSRF token. */
async function connectPlatform(acknowledge: boolean): Promise<Response> {
  const { csrf_token } = await (await recorded('platform status', await client.get('/account/platform'))).json<{ csrf_token: string }>()
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  const res = await SELF.fetch('http://localhost/account/platform/connect', {
    method: 'POST',
    headers: { Cookie: cookie, 'Content-Type': 'application/json', [CSRF_HEADER]: csrf_token },
    body: JSON.stringify({ email: `diner-${userId}@example.test`, password: platformPassword, acknowledge_risk: acknowledge }),
  })
  return recorded('platform connect', res)
}

/** Connects the platform for this test's user and marks its platform token a secret too. */
async function connectedPlatformToken(): Promise<string> {
  expect((await connectPlatform(true)).status).toBe(200)
  const session = await platformSessionOf(depsOf(env), userId)
  expect(session).not.toBeNull()
  return keepSecret(session?.credentials.authToken ?? '')
}

describe('the secrets check', () => {
  it('sees a value planted in a response and in a log line written inside the worker', async () => {
    const inResponse = `canary-${randomBase62(16)}`
    const inLog = `canary-${randomBase62(16)}`
    expect(findLeaks([inResponse, inLog]).leaks).toEqual([])
    const created = await send({
      method: 'POST',
      path: '/api/v1/requests',
      headers: jsonHeaders(token, { 'Idempotency-Key': newKey() }),
      body: JSON.stringify(validSpec({ title: inResponse })),
    })
    expect(created.status).toBe(201)
    await runInDurableObject(requestObject(env, String((created.json as { id: string }).id)), () => console.warn(inLog))
    const seen = findLeaks([inResponse, inLog]).leaks
    expect(seen.some((l) => l.startsWith('response'))).toBe(true)
    expect(seen.some((l) => l.startsWith('console'))).toBe(true)
    await send({ method: 'POST', path: `/api/v1/requests/${String((created.json as { id: string }).id)}/stop`, headers: bearer(token) })
    // The planted canaries are not kept as secrets, so the watch itself stays clean.
    expectNoLeaks()
  })
})

describe('secrets', () => {
  it('connects the platform without echoing the password, and stores its token sealed', async () => {
    expect((await connectPlatform(false)).status).toBe(422)
    const platformToken = await connectedPlatformToken()
    const sealed = await env.DB.prepare('select token_ciphertext, token_iv from platform_connections where user_id = ?')
      .bind(userId)
      .first<Record<string, string>>()
    expect(sealed?.token_ciphertext).toBeTruthy()
    expect(JSON.stringify(sealed)).not.toContain(platformToken)
    expect(JSON.stringify(sealed)).not.toContain(btoa(platformToken))
    expect(expectNoLeaks().secrets).toBeGreaterThanOrEqual(6)
  })

  it('never shows a token, password or platform credential through any route, page or log line', async () => {
    await connectedPlatformToken()
    const read = (path: string) => send({ method: 'GET', path, headers: bearer(token) })
    const ok = (answer: Answer, status = 200) => expect(answer.status, answer.text.slice(0, 200)).toBe(status)
    ok(await read('/api/v1/capabilities'))
    ok(await read('/api/v1/restaurants?q=Pomelo'))
    const day = dateIn(NEW_YORK, 3)
    const spec = validSpec({ venue_ids: [SANDBOX_VENUE], dates: [day], expires_at: expiresIn(DAY_MS) })
    ok(await send({ method: 'POST', path: '/api/v1/requests/preview', headers: jsonHeaders(token), body: JSON.stringify(spec) }))
    const created = await send({
      method: 'POST',
      path: '/api/v1/requests',
      headers: jsonHeaders(token, { 'Idempotency-Key': newKey() }),
      body: JSON.stringify(spec),
    })
    ok(created, 201)
    const id = String((created.json as { id: string }).id)
    // The watcher polls the platform with the user's token: nothing of it may reach a log.
    await runInDurableObject(requestObject(env, id), (_i, state) => state.storage.setAlarm(Date.now()))
    await runDurableObjectAlarm(requestObject(env, id))
    const autoBook = await send({
      method: 'POST',
      path: '/api/v1/requests',
      headers: jsonHeaders(token, { 'Idempotency-Key': newKey() }),
      body: JSON.stringify({ ...spec, mode: 'auto_book', dates: [dateIn(NEW_YORK, 4)] }),
    })
    ok(autoBook, 201)
    ok(await read('/api/v1/requests'))
    ok(await read(`/api/v1/requests/${id}`))
    const updated = await send({
      method: 'PUT',
      path: `/api/v1/requests/${id}`,
      headers: jsonHeaders(token, { 'Idempotency-Key': newKey() }),
      body: JSON.stringify({ revision: 1, spec: { ...spec, title: 'renamed' } }),
    })
    ok(updated)
    ok(await read(`/api/v1/reservations/${await insertReservation(id)}`))
    ok(await send({ method: 'POST', path: `/api/v1/requests/${id}/stop`, headers: bearer(token) }))
    // Refusals too: bad bodies, a tampered token, another scope's route.
    await send({ method: 'POST', path: '/api/v1/requests', headers: jsonHeaders(token), body: '{"title": ' })
    await send({ method: 'GET', path: '/api/v1/capabilities', headers: bearer(`${token.slice(0, -2)}xx`) })
    await send({ method: 'GET', path: '/api/v1/capabilities', headers: { Authorization: `Basic ${btoa(`user:${servicePassword}`)}` } })
    // Every MCP tool too, with good and bad arguments.
    const mcpDay = dateIn(NEW_YORK, 5)
    const mcpSpec = { ...spec, dates: [mcpDay] }
    const made = await mcpSend(toolCall(token, 'svc_create_request', { spec: mcpSpec, idempotency_key: newKey() }))
    expect(made.kind).toBe('success')
    const mcpId = made.kind === 'success' ? String((made.result as { structuredContent: { id: string } }).structuredContent.id) : ''
    for (const [tool, args] of [
      ['svc_find_restaurants', { q: 'Pomelo' }],
      ['svc_preview_request', { spec: mcpSpec }],
      ['svc_get_request', { request_id: mcpId }],
      ['svc_list_requests', {}],
      ['svc_update_request', { request_id: mcpId, revision: 1, spec: { ...mcpSpec, title: 'renamed' }, idempotency_key: newKey() }],
      ['svc_get_reservation', { reservation_id: await insertReservation(mcpId) }],
      ['svc_stop_request', { request_id: mcpId }],
      ['svc_create_request', { spec: { ...mcpSpec, party_size: 99 }, idempotency_key: newKey() }],
    ] as const) {
      expect((await mcpSend(toolCall(token, tool, args))).kind, tool).not.toBe('unreadable')
    }
    await mcpSend({ ...toolCall(`${token.slice(0, -2)}xx`, 'svc_list_requests', {}) })
    for (const page of [
      '/',
      '/settings',
      '/assistants',
      '/notifications',
      '/developers',
      `/requests/${String((autoBook.json as { id: string }).id)}`,
    ]) {
      await recorded(`page ${page}`, await client.get(page))
    }
    expect(expectNoLeaks().responses).toBeGreaterThan(20)
  })

  it('keeps no password, access token or platform token in any D1 table', async () => {
    const platformToken = await connectedPlatformToken()
    const tables = await dumpAllTables()
    expect(Object.keys(tables)).toEqual(expect.arrayContaining(['users', 'access_tokens', 'platform_connections', 'requests']))
    expect(tables.platform_connections).toContain(userId)
    const found = Object.entries(tables).flatMap(([table, rows]) =>
      [servicePassword, platformPassword, token, platformToken]
        .filter((secret) => rows.includes(secret))
        .map((secret) => `${table}: ${secret.slice(0, 4)}…`),
    )
    expect(found).toEqual([])
    expectNoLeaks()
  })
})
