// The abuse suite for the OAuth endpoints: dynamic registration, the token endpoint
// and RFC 7009 revocation, each sent malformed and hostile bodies. Nothing answers 5xx, no
// client is stored from a refused registration, and no forged revocation ends another user's
// grant or revokes the requests made through it. Nothing leaks.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { requestStatus } from '../helpers/requests'
import { mcpPost, rpc } from '../mcp/mcp-client'
import { type Connection, ORIGIN, register } from '../oauth/oauth-client'
import { mapBounded, send } from './support/http'
import { expectNoLeaks, watchConsole } from './support/leaks'
import { connectedVictim } from './support/victim'

const JSON_TYPE = { 'Content-Type': 'application/json' }
const FORM_TYPE = { 'Content-Type': 'application/x-www-form-urlencoded' }
const REDIRECT = 'http://127.0.0.1:33418/callback'

async function clientCount(): Promise<number> {
  return (await env.OAUTH_KV.list({ prefix: 'client:' })).keys.length
}

const REGISTRATIONS: [string, string][] = [
  ['not JSON', 'client_name=x'],
  ['a JSON array', '[]'],
  ['JSON null', 'null'],
  ['a JSON string', '"client"'],
  ['an 800-deep array', '['.repeat(800)],
  ['a deeply nested object', JSON.stringify({ redirect_uris: [REDIRECT], x: { a: { b: { c: { d: { e: 1 } } } } } })],
  ['redirect_uris as a string', JSON.stringify({ redirect_uris: REDIRECT })],
  ['redirect_uris of numbers', JSON.stringify({ redirect_uris: [1, 2] })],
  ['a javascript: redirect', JSON.stringify({ redirect_uris: ['javascript:alert(1)'] })],
  ['a redirect host with a ";"', JSON.stringify({ redirect_uris: ['https://a.example;sandbox/cb'] })],
  ['a redirect host with a space', JSON.stringify({ redirect_uris: ['https://a.example%20b/cb'] })],
  ['11 redirect URIs', JSON.stringify({ redirect_uris: Array.from({ length: 11 }, (_, i) => `${REDIRECT}${i}`) })],
  ['a 101-character name', JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'n'.repeat(101) })],
  ['a name that is an object', JSON.stringify({ redirect_uris: [REDIRECT], client_name: { en: 'x' } })],
  ['40 fields', JSON.stringify({ redirect_uris: [REDIRECT], ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, i])) })],
  ['a 20 KB body', JSON.stringify({ redirect_uris: [REDIRECT], client_uri: `https://x.example/${'p'.repeat(20_000)}` })],
  ['a 70 KB body', JSON.stringify({ redirect_uris: [REDIRECT], junk: 'j'.repeat(70_000) })],
  ['an unknown auth method', JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'telepathy' })],
  ['an unknown grant type', JSON.stringify({ redirect_uris: [REDIRECT], grant_types: ['password'] })],
]

function tokenCalls(victim: Connection, attackerClient: string): [string, string, Record<string, string>][] {
  const [userId, grantId] = victim.accessToken.split(':')
  const forged = `${userId}:${grantId}:${'f'.repeat(43)}`
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
  return [
    ['no grant type', form({ code: 'x', client_id: attackerClient }), FORM_TYPE],
    ['an unknown grant type', form({ grant_type: 'password', username: 'a', password: 'b', client_id: attackerClient }), FORM_TYPE],
    ['a JSON body', JSON.stringify({ grant_type: 'refresh_token', refresh_token: victim.refreshToken }), JSON_TYPE],
    ['a 10 KB code', form({ grant_type: 'authorization_code', code: 'c'.repeat(10_000), client_id: attackerClient }), FORM_TYPE],
    [
      'a forged refresh token for the victim’s grant',
      form({ grant_type: 'refresh_token', refresh_token: forged, client_id: attackerClient }),
      FORM_TYPE,
    ],
    [
      'a forged refresh token with the victim’s client',
      form({ grant_type: 'refresh_token', refresh_token: forged, client_id: victim.client.client_id }),
      FORM_TYPE,
    ],
    [
      'a refresh token of four parts',
      form({ grant_type: 'refresh_token', refresh_token: `${forged}:x`, client_id: attackerClient }),
      FORM_TYPE,
    ],
    [
      'the victim’s refresh token from another client',
      form({ grant_type: 'refresh_token', refresh_token: victim.refreshToken, client_id: attackerClient }),
      FORM_TYPE,
    ],
    [
      'revoking a forged token naming the victim’s grant',
      form({ token: forged, token_type_hint: 'refresh_token', client_id: attackerClient }),
      FORM_TYPE,
    ],
    ['revoking it as another user', form({ token: `usr_nobody:${grantId}:x`, client_id: attackerClient }), FORM_TYPE],
    ['revoking it with the victim’s own (public) client id', form({ token: forged, client_id: victim.client.client_id }), FORM_TYPE],
    [
      'revoking the victim’s real refresh token from another client',
      form({ token: victim.refreshToken, client_id: attackerClient }),
      FORM_TYPE,
    ],
    [
      'revoking an expired-looking access token',
      form({ token: `${userId}:${grantId}:expired`, token_type_hint: 'access_token', client_id: attackerClient }),
      FORM_TYPE,
    ],
    ['revoking an empty token', form({ token: '', client_id: attackerClient }), FORM_TYPE],
    ['revoking a 60 KB token', form({ token: 't'.repeat(60_000), client_id: attackerClient }), FORM_TYPE],
    ['revoking with an unknown client', form({ token: forged, client_id: 'no-such-client' }), FORM_TYPE],
    ['a broken multipart body', '--x\r\nbroken', { 'Content-Type': 'multipart/form-data; boundary=elsewhere' }],
  ]
}

let victim: Connection
let requestId: string

beforeEach(async () => {
  watchConsole()
  ;({ victim, requestId } = await connectedVictim())
})

describe('the OAuth endpoints under abuse', () => {
  it('refuse every malformed or oversized registration with a 4xx, storing no client', async () => {
    const before = await clientCount()
    const answers = await mapBounded(REGISTRATIONS, 4, ([, body]) =>
      send({ origin: ORIGIN, method: 'POST', path: '/oauth/register', headers: JSON_TYPE, body }),
    )
    const problems = REGISTRATIONS.flatMap(([name], i) => {
      const status = answers[i]?.status ?? 0
      return status >= 400 && status < 500 ? [] : [`${name}: ${status}`]
    })
    expect(problems).toEqual([])
    expect(await clientCount()).toBe(before)
    expectNoLeaks()
  }, 60_000)

  it('never answer a hostile token or revocation request with a 5xx, and never end the victim’s grant', async () => {
    const attacker = await register()
    const calls = tokenCalls(victim, attacker.client_id)
    const answers = await mapBounded(calls, 4, ([, body, headers]) =>
      send({ origin: ORIGIN, method: 'POST', path: '/oauth/token', headers, body }),
    )
    const problems = calls.flatMap(([name], i) => ((answers[i]?.status ?? 500) < 500 ? [] : [`${name}: ${answers[i]?.status}`]))
    expect(problems).toEqual([])
    expect(await requestStatus(requestId)).toBe('active')
    expect((await mcpPost(rpc('tools/list'), { token: victim.accessToken })).status).toBe(200)
    expectNoLeaks()
  }, 60_000)
})
