// The abuse suite for the web forms: every form of the pages, signed in or out, is
// sent without its CSRF token, with another session's, from another site, oversized and
// unparsable: each is refused with the status named, no row is added or removed, the owned
// request stays as it was. Each field replaced by something hostile never answers 5xx (a name
// may well be "<script>": it is escaped, so accepting it is right). Nothing leaks.
import { env, SELF } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { randomBase62 } from '../helpers/auth'
import { seedVenues } from '../helpers/venues'
import { WebClient } from '../web/web-client'
import { type Answer, mapBounded } from './support/http'
import { expectNoLeaks, keepSecret, recordResponse, watchConsole } from './support/leaks'
import { type Owned, ownedBy, stateOf } from './support/owned'
import { rowCounts } from './support/tables'
import { secretToken } from './support/users'

type Fields = Record<string, string>

interface Form {
  path: string
  /** Valid values (besides _csrf); their hostile variants are sent one field at a time. */
  fields: Fields
  /** The form acts on its own (sign-out, stop, disconnect): only refusals are sent to it. */
  refusalsOnly?: boolean
}

/** Tables whose counts a refused form may change: throttle counters and session bookkeeping. */
const COUNTERS = new Set(['rate_limits', 'sessions'])

const HOSTILE: [string, (field: string) => string | File][] = [
  ['a 5,000-character value', () => 'x'.repeat(5_000)],
  ['control and bidirectional characters', () => 'a\u0000b\u202Ec'],
  ['markup', () => '<script>alert(1)</script>'],
  ['a file', (field) => new File(['not a value'], `${field}.txt`)],
  ['an empty value', () => ''],
]

let web: WebClient
let password: string
let owned: Owned
let token: string

function formsOf(): Form[] {
  return [
    { path: '/assistants/tokens', fields: { name: 'Laptop', scopes: 'requests:read' } },
    { path: '/assistants/tokens/pat_doesnotexist/revoke', fields: {}, refusalsOnly: true },
    { path: '/assistants/grants/grant_doesnotexist/revoke', fields: {}, refusalsOnly: true },
    { path: '/settings/notifications', fields: { email_alerts: 'on', webhook_url: 'https://ntfy.sh/abuse-suite' } },
    { path: '/settings/webhook-test', fields: {}, refusalsOnly: true },
    { path: '/settings/platform/connect', fields: { platform_email: 'diner@example.com', platform_password: 'wrong', accept_risk: 'on' } },
    { path: '/settings/platform/code', fields: { mobile_number: '+12125550123', via: 'cloud' } },
    { path: '/settings/platform/code/check', fields: { code: '123456', accept_risk: 'on' } },
    { path: '/settings/platform/code/email', fields: { email: 'diner@example.com' } },
    { path: '/settings/platform/code/cancel', fields: {}, refusalsOnly: true },
    { path: '/settings/platform/disconnect', fields: {}, refusalsOnly: true },
    { path: '/settings/password', fields: { current_password: 'not the password', new_password: 'a long new password' } },
    { path: '/settings/signout-everywhere', fields: {}, refusalsOnly: true },
    { path: '/notifications/read-all', fields: {}, refusalsOnly: true },
    { path: `/requests/${owned.requestId}/approve`, fields: { revision: String(owned.revision + 7) } },
    { path: `/requests/${owned.requestId}/decline`, fields: {}, refusalsOnly: true },
    { path: `/requests/${owned.requestId}/stop`, fields: {}, refusalsOnly: true },
    { path: '/signout', fields: {}, refusalsOnly: true },
  ]
}

function cookieHeader(client: WebClient): string {
  return [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
}

async function post(label: string, path: string, body: BodyInit, headers: Record<string, string>, client = web): Promise<Answer> {
  const res = await SELF.fetch(`${client.origin}${path}`, {
    method: 'POST',
    headers: { Cookie: cookieHeader(client), 'CF-Connecting-IP': client.address, ...headers },
    body,
    redirect: 'manual',
  })
  const text = await res.text()
  recordResponse(label, res.status, res.headers, text)
  return { status: res.status, headers: res.headers, text, json: undefined }
}

function urlencoded(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString()
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' }

beforeEach(async () => {
  watchConsole()
  await seedVenues()
  web = new WebClient()
  password = keepSecret(`abuse-pw-${randomBase62(16)}`)
  const email = await web.newUser(password)
  const row = await env.DB.prepare('select id from users where email = ?').bind(email).first<{ id: string }>()
  token = (await secretToken(row?.id ?? '')).token
  owned = await ownedBy(token, { title: 'owned by the web abuse suite' })
})

/**
 * Runs the calls and checks: never 5xx, each status as wanted, the request as it was, the session
 * alive, and (unless `counts` is false) no row added or removed.
 */
async function expectRefused(calls: { label: string; send: () => Promise<Answer>; want: (status: number) => boolean }[], counts = true) {
  const before = await rowCounts()
  const state = await stateOf(token, owned.requestId)
  const answers = await mapBounded(calls, 4, (call) => call.send())
  const problems = calls.flatMap((call, i) => {
    const status = answers[i]?.status ?? 0
    return status >= 500 || !call.want(status) ? [`${call.label}: ${status}`] : []
  })
  expect(problems).toEqual([])
  const after = await rowCounts()
  for (const table of COUNTERS) {
    delete before[table]
    delete after[table]
  }
  if (counts) expect(after).toEqual(before)
  expect(await stateOf(token, owned.requestId)).toEqual(state)
  expect((await web.get('/assistants')).status).toBe(200) // still signed in: nothing signed us out
}

describe('the web forms under abuse', () => {
  it('refuse every form without a token, with another session’s, or from another site (403)', async () => {
    const stranger = new WebClient()
    await stranger.newUser()
    const theirs = await stranger.csrfFrom('/assistants')
    const mine = await web.csrfFrom('/assistants')
    const calls = formsOf().flatMap((form) => [
      {
        label: `${form.path} without a token`,
        send: () => post(form.path, form.path, urlencoded(form.fields), FORM),
        want: (s: number) => s === 403,
      },
      {
        label: `${form.path} with another session's token`,
        send: () => post(form.path, form.path, urlencoded({ ...form.fields, _csrf: theirs }), FORM),
        want: (s: number) => s === 403,
      },
      {
        label: `${form.path} from another site`,
        send: () => post(form.path, form.path, urlencoded({ ...form.fields, _csrf: mine }), { ...FORM, Origin: 'https://evil.example' }),
        want: (s: number) => s === 403,
      },
      {
        label: `${form.path} from a sibling subdomain`,
        send: () => post(form.path, form.path, urlencoded({ ...form.fields, _csrf: mine }), { ...FORM, 'Sec-Fetch-Site': 'same-site' }),
        want: (s: number) => s === 403,
      },
    ])
    await expectRefused(calls)
    expectNoLeaks()
  }, 120_000)

  it('refuse oversized (413) and unparsable (422) bodies, with a valid token', async () => {
    const mine = await web.csrfFrom('/assistants')
    const oversized = Array.from({ length: 3_000 }, (_, i) => `f${i}=${'x'.repeat(18)}`).join('&')
    const calls = formsOf().flatMap((form) => [
      {
        label: `${form.path} with 70 KB`,
        send: () => post(form.path, form.path, `${oversized}&_csrf=${mine}`, FORM),
        want: (s: number) => s === 413,
      },
      {
        label: `${form.path} with a broken multipart body`,
        send: () =>
          post(form.path, form.path, '--x\r\nnot multipart', {
            'Content-Type': 'multipart/form-data; boundary=elsewhere',
            'x-csrf-token': mine,
          }),
        want: (s: number) => s === 422,
      },
    ])
    await expectRefused(calls)
    expectNoLeaks()
  }, 120_000)

  it('never answer a hostile field with a 5xx, with a valid token', async () => {
    const mine = await web.csrfFrom('/assistants')
    const calls = formsOf()
      .filter((form) => !form.refusalsOnly)
      .flatMap((form) =>
        Object.keys(form.fields).flatMap((field) =>
          HOSTILE.map(([name, value]) => ({
            label: `${form.path}: ${field} as ${name}`,
            send: () => {
              const body = new FormData()
              for (const [key, valid] of Object.entries({ ...form.fields, _csrf: mine }))
                body.append(key, key === field ? value(field) : valid)
              return post(`${form.path} ${field}`, form.path, body, {})
            },
            want: (s: number) => s < 500,
          })),
        ),
      )
    await expectRefused(calls, false)
    expectNoLeaks()
  }, 120_000)

  it('refuse the signed-out forms without a valid signed token, oversized or unparsable', async () => {
    const visitor = new WebClient()
    const signedOutToken = await visitor.csrfFrom('/signin')
    const calls = ['/signin', '/signup', '/password-reset', '/password-reset/set', '/oauth/authorize'].flatMap((path) => [
      {
        label: `${path} without a cookie`,
        send: () => post(path, path, urlencoded({ email: 'a@example.com', password }), FORM, new WebClient()),
        want: (s: number) => s === 403,
      },
      {
        label: `${path} with a planted unsigned token`,
        send: () =>
          post(
            path,
            path,
            urlencoded({ email: 'a@example.com', password, _csrf: 'planted' }),
            { ...FORM, Cookie: 'tw_csrf=planted' },
            new WebClient(),
          ),
        want: (s: number) => s === 403,
      },
      {
        label: `${path} from another site`,
        send: () =>
          post(
            path,
            path,
            urlencoded({ email: 'a@example.com', password, _csrf: signedOutToken }),
            { ...FORM, 'Sec-Fetch-Site': 'cross-site' },
            visitor,
          ),
        want: (s: number) => s === 403,
      },
      {
        label: `${path} with an email over the limit`,
        send: () =>
          post(path, path, urlencoded({ email: `${'a'.repeat(400)}@example.com`, password, _csrf: signedOutToken }), FORM, visitor),
        want: (s: number) => s === 422 || s === 400,
      },
    ])
    await expectRefused(calls)
    expectNoLeaks()
  }, 120_000)
})
