// Identifiers and tokens far
// longer than any the service issues, on every route family. KV refuses keys over 512 bytes, so
// before the caps each of these answered an unauthenticated 5xx. Now each is refused in its
// route's own format (JSON `{code, message}` for /api/v1 and /mcp, the OAuth error body on
// /oauth/*, the HTML page on the web forms), with 400 or 401, and nothing is stored.
import { SELF } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { seedVenues } from '../helpers/venues'
import { MCP_URL } from '../mcp/mcp-client'
import { authorizePath, connect, ORIGIN, register } from '../oauth/oauth-client'
import { WebClient } from '../web/web-client'
import { type Answer, mapBounded, send } from './support/http'
import { expectNoLeaks, watchConsole } from './support/leaks'
import { rowCounts } from './support/tables'

const LONG = 'x'.repeat(600)
/** A refresh token or access token in the library's `user:grant:secret` shape, 600 characters long. */
const LONG_SHAPED = `${'u'.repeat(300)}:${'g'.repeat(250)}:${'s'.repeat(48)}`
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' }
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()

interface Probe {
  label: string
  send: () => Promise<Answer>
  /** The statuses allowed (never a 5xx). */
  want: number[]
  /** The body's format: the contract's JSON error, the OAuth error, or an HTML page. */
  format: 'contract' | 'oauth' | 'html'
}

function formatOk(probe: Probe, answer: Answer): boolean {
  const body = answer.json as Record<string, unknown> | undefined
  if (probe.format === 'html') return (answer.headers.get('content-type') ?? '').startsWith('text/html')
  if (probe.format === 'oauth') return typeof body?.error === 'string'
  return typeof body?.code === 'string' && typeof body.message === 'string'
}

async function expectAllRefused(probes: Probe[]) {
  const before = await rowCounts()
  const answers = await mapBounded(probes, 4, (p) => p.send())
  const problems = probes.flatMap((probe, i) => {
    const answer = answers[i]
    if (!answer) return [`${probe.label}: no answer`]
    if (!probe.want.includes(answer.status)) return [`${probe.label}: ${answer.status} ${answer.text.slice(0, 120)}`]
    return formatOk(probe, answer) ? [] : [`${probe.label}: not in the route's format: ${answer.text.slice(0, 120)}`]
  })
  expect(problems).toEqual([])
  const after = await rowCounts()
  delete before.rate_limits
  delete after.rate_limits
  expect(after).toEqual(before)
  expectNoLeaks()
}

beforeEach(async () => {
  watchConsole()
  await seedVenues()
})

describe('identifiers and tokens of 600 characters', () => {
  it('on /api/v1 and /mcp: a 401 in the contract format, not a 5xx', async () => {
    const bearers = [LONG, LONG_SHAPED, `spt_${LONG}`]
    const probes: Probe[] = bearers.flatMap((token, n) => [
      {
        label: `/api/v1 with bearer #${n}`,
        send: () => send({ method: 'GET', path: '/api/v1/requests', headers: { Authorization: `Bearer ${token}` } }),
        want: [401],
        format: 'contract' as const,
      },
      {
        label: `/mcp with bearer #${n}`,
        send: () =>
          send({
            origin: ORIGIN,
            method: 'POST',
            path: new URL(MCP_URL).pathname,
            headers: {
              Host: 'localhost:8787',
              Authorization: `Bearer ${token}`,
              'Content-Type': 'application/json',
              Accept: 'application/json, text/event-stream',
            },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
          }),
        want: [401],
        format: 'contract' as const,
      },
    ])
    await expectAllRefused(probes)
  }, 60_000)

  it('on /oauth/token, revocation and /oauth/authorize: a 400 or 401 OAuth error, not a 5xx', async () => {
    const client = await register()
    const token =
      (fields: Record<string, string>, headers: Record<string, string> = {}) =>
      () =>
        send({ origin: ORIGIN, method: 'POST', path: '/oauth/token', headers: { ...FORM, ...headers }, body: form(fields) })
    const basic = (id: string) => ({ Authorization: `Basic ${btoa(`${id}:secret`)}` })
    const probes: Probe[] = [
      {
        label: 'a long client_id',
        send: token({ grant_type: 'authorization_code', code: 'c', client_id: LONG }),
        want: [400, 401],
        format: 'oauth',
      },
      {
        label: 'a long https client_id',
        send: token({ grant_type: 'authorization_code', code: 'c', client_id: `https://a.example/${LONG}` }),
        want: [400, 401],
        format: 'oauth',
      },
      {
        label: 'a long Basic id',
        send: token({ grant_type: 'authorization_code', code: 'c' }, basic(LONG)),
        want: [400, 401],
        format: 'oauth',
      },
      {
        label: 'a long refresh_token',
        send: token({ grant_type: 'refresh_token', refresh_token: LONG_SHAPED, client_id: client.client_id }),
        want: [400, 401],
        format: 'oauth',
      },
      {
        label: 'a long code',
        send: token({ grant_type: 'authorization_code', code: LONG_SHAPED, client_id: client.client_id, code_verifier: 'v'.repeat(43) }),
        want: [400, 401],
        format: 'oauth',
      },
      {
        label: 'revoking a long token',
        send: token({ token: LONG_SHAPED, client_id: client.client_id }),
        want: [400, 401],
        format: 'oauth',
      },
      { label: 'revoking with a long client_id', send: token({ token: 'a:b:c', client_id: LONG }), want: [400, 401], format: 'oauth' },
      {
        label: 'authorize with a long client_id',
        send: () =>
          send({
            origin: ORIGIN,
            method: 'GET',
            path: authorizePath({ client: { client_id: LONG, redirect_uris: [] }, challenge: 'x'.repeat(43), method: 'S256' }),
          }),
        want: [400],
        format: 'html',
      },
    ]
    await expectAllRefused(probes)
  }, 60_000)

  it('in the web forms, signed in: a 4xx page, not a 5xx', async () => {
    const web = new WebClient(ORIGIN)
    await web.newUser()
    const csrf = await web.csrfFrom('/assistants')
    const cookie = [...web.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const post =
      (path: string, fields: Record<string, string> = {}) =>
      () =>
        send({ origin: ORIGIN, method: 'POST', path, headers: { ...FORM, Cookie: cookie }, body: form({ ...fields, _csrf: csrf }) })
    const get = (path: string) => () => send({ origin: ORIGIN, method: 'GET', path, headers: { Cookie: cookie } })
    const probes: Probe[] = [
      { label: 'revoking a long grant id', send: post(`/assistants/grants/${LONG}/revoke`), want: [400, 404, 422], format: 'html' },
      { label: 'revoking a long token id', send: post(`/assistants/tokens/${LONG}/revoke`), want: [400, 404, 422], format: 'html' },
      {
        label: 'approving a long request id',
        send: post(`/requests/${LONG}/approve`, { revision: '1' }),
        want: [400, 404, 422],
        format: 'html',
      },
      { label: 'a long request page', send: get(`/requests/${LONG}`), want: [400, 404, 422], format: 'html' },
      { label: 'a long device id', send: post(`/settings/devices/${LONG}/revoke`), want: [400, 404, 422], format: 'html' },
      {
        label: 'unsubscribe with a broken multipart body',
        send: () =>
          send({
            origin: ORIGIN,
            method: 'POST',
            path: '/unsubscribe',
            headers: { 'Content-Type': 'multipart/form-data; boundary=elsewhere' },
            body: '--x\r\nbroken',
          }),
        want: [400, 422],
        format: 'html',
      },
      {
        label: 'unsubscribe with long link fields',
        send: () => send({ origin: ORIGIN, method: 'POST', path: `/unsubscribe?u=${LONG}&t=${LONG}`, headers: FORM, body: '' }),
        want: [400],
        format: 'html',
      },
    ]
    await expectAllRefused(probes)
  }, 60_000)

  it('a broken multipart body on every route family: a 4xx in the route format', async () => {
    const c = await connect()
    const broken = { 'Content-Type': 'multipart/form-data; boundary=elsewhere' }
    const body = '--x\r\nbroken'
    const probes: Probe[] = [
      {
        label: '/api/v1',
        send: () =>
          send({
            method: 'POST',
            path: '/api/v1/requests',
            headers: { ...broken, Authorization: `Bearer ${c.accessToken.replace(/.$/, 'x')}` },
            body,
          }),
        want: [401],
        format: 'contract',
      },
      {
        label: '/mcp',
        send: () =>
          send({
            origin: ORIGIN,
            method: 'POST',
            path: '/mcp',
            headers: { ...broken, Host: 'localhost:8787', Accept: 'application/json, text/event-stream' },
            body,
          }),
        want: [401],
        format: 'contract',
      },
      {
        label: '/oauth/token',
        send: () => send({ origin: ORIGIN, method: 'POST', path: '/oauth/token', headers: broken, body }),
        want: [400],
        format: 'oauth',
      },
      {
        label: '/oauth/register',
        send: () => send({ origin: ORIGIN, method: 'POST', path: '/oauth/register', headers: broken, body }),
        want: [400],
        format: 'oauth',
      },
      {
        label: '/device/v1/pair',
        send: () => send({ origin: ORIGIN, method: 'POST', path: '/device/v1/pair', headers: broken, body }),
        want: [400, 422],
        format: 'contract',
      },
    ]
    await expectAllRefused(probes)
  }, 60_000)

  it('leave a real connection working', async () => {
    const c = await connect()
    const res = await SELF.fetch(`${ORIGIN}/api/v1/requests`, { headers: { Authorization: `Bearer ${LONG}` } })
    expect(res.status).toBe(401)
    expect(c.accessToken.length).toBeLessThan(256)
    expect(c.refreshToken.length).toBeLessThan(256)
  })
})
