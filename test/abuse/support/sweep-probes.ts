// The bad inputs of the every-endpoint sweep (test/abuse/every-endpoint.test.ts): each
// endpoint's usual request, varied one way at a time: every parameter repeated (the first empty,
// two values, the same twice), odd Authorization headers (HTTP Basic with tabs, spaces, no
// credentials, a metadata-document URL as the user; Bearer oddities), odd content types and
// methods. The OAuth endpoints get every variation; the others the repeats and the headers.
import type { Call } from './http'

export interface SweepProbe {
  /** The endpoint family the counts are reported by. */
  family: string
  label: string
  call: Call
}

/** A metadata-document URL the service must never fetch (private, not 443). */
export const PRIVATE_CLIENT_URL = 'https://192.0.2.2:9444/c'
const FORGED = `usr_sweep:${'g'.repeat(16)}:${'s'.repeat(43)}`
const b64 = (text: string) => btoa(text)

export const ODD_AUTHORIZATIONS: [string, string][] = [
  ['Basic with a tab', `Basic\t${b64('abc:secret')}`],
  ['Basic with two spaces', `Basic  ${b64('abc:secret')}`],
  ['basic in lower case', `basic ${b64('abc:secret')}`],
  ['BASIC, a tab and a trailing space', `BASIC\t${b64('abc:secret')} `],
  ['Basic alone', 'Basic'],
  ['Basic and a space', 'Basic '],
  ['Basic that is not base64', 'Basic !!!'],
  ['Basic without a colon', `Basic ${b64('abc')}`],
  ['Basic with broken percent-encoding', `Basic ${b64('%E0%A4%A:x')}`],
  ['Basic naming a private metadata URL', `Basic ${b64(`${encodeURIComponent(PRIVATE_CLIENT_URL)}:x`)}`],
  ['Basic naming it with a tab', `Basic\t${b64(`${encodeURIComponent(PRIVATE_CLIENT_URL)}:x`)}`],
  ['Basic with a 3 KB id', `Basic ${b64(`${'a'.repeat(3000)}:x`)}`],
  ['Basic and Bearer in one header', `Basic ${b64('abc:x')}, Bearer x`],
  ['Bearer alone', 'Bearer'],
  ['Bearer with a tab', 'Bearer\tabc'],
  ['Bearer of two words', 'Bearer a b'],
  ['Bearer of a forged OAuth token', `Bearer ${FORGED}`],
  ['Bearer of 10 KB', `Bearer ${'t'.repeat(10_000)}`],
  ['Digest', 'Digest username="x", realm="y"'],
]

/** Each parameter repeated three ways; `inject` is the second value where one is given. */
export function repeatedParameters(params: [string, string][], inject: Record<string, string> = {}): [string, string][] {
  const encode = (pairs: [string, string][]) => new URLSearchParams(pairs).toString()
  return params.flatMap(([key, value], i) => {
    const others = params.filter((_, j) => j !== i)
    const second = inject[key] ?? `${value}-other`
    return [
      [`${key} twice, the first empty`, encode([[key, ''], [key, second], ...others])],
      [`${key} twice, two values`, encode([[key, value], [key, second], ...others])],
      [`${key} twice, the same`, encode([[key, value], [key, value], ...others])],
    ] as [string, string][]
  })
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' }
const CONTENT_TYPES: [string, Record<string, string>][] = [
  ['no content type', {}],
  ['JSON', { 'Content-Type': 'application/json' }],
  ['text/plain', { 'Content-Type': 'text/plain' }],
  ['multipart without a boundary', { 'Content-Type': 'multipart/form-data' }],
  ['the form type in capitals with a charset', { 'Content-Type': 'APPLICATION/X-WWW-FORM-URLENCODED; charset=latin1' }],
  ['two content types', { 'Content-Type': 'application/x-www-form-urlencoded, application/json' }],
]

/** The usual bodies of the token endpoint, by what they ask, from a registered client that is not the victim's. */
export function tokenBodies(clientId: string, redirectUri: string, victimRefreshToken: string): Record<string, [string, string][]> {
  return {
    'a code exchange': [
      ['grant_type', 'authorization_code'],
      ['code', 'code-from-nowhere'],
      ['redirect_uri', redirectUri],
      ['client_id', clientId],
      ['code_verifier', 'v'.repeat(43)],
      ['resource', 'http://localhost:8787/mcp'],
    ],
    // The victim's real refresh token, from a client that is not the victim's: never a success.
    'a refresh': [
      ['grant_type', 'refresh_token'],
      ['refresh_token', victimRefreshToken],
      ['client_id', clientId],
    ],
    'a forged refresh': [
      ['grant_type', 'refresh_token'],
      ['refresh_token', FORGED],
      ['client_id', clientId],
    ],
    // The library's own reading: an empty grant_type is a revocation; another client's changes nothing.
    'a revocation with an empty grant_type, of the victim’s token': [
      ['grant_type', ''],
      ['token', victimRefreshToken],
      ['client_id', clientId],
    ],
    'a code exchange by a metadata-document client the site does not serve': [
      ['grant_type', 'authorization_code'],
      ['code', 'code-from-nowhere'],
      ['redirect_uri', redirectUri],
      ['client_id', 'https://assistant.example.com/sweep/client.json'],
      ['code_verifier', 'v'.repeat(43)],
    ],
    'a revocation': [
      ['token', FORGED],
      ['token_type_hint', 'refresh_token'],
      ['client_id', clientId],
    ],
    'client credentials': [
      ['grant_type', 'client_credentials'],
      ['client_id', clientId],
      ['client_secret', 'secret'],
    ],
  }
}

const inject = { client_id: PRIVATE_CLIENT_URL }

export function tokenProbes(origin: string, clientId: string, redirectUri: string, victimRefreshToken: string): SweepProbe[] {
  const probes: SweepProbe[] = []
  const post = (label: string, body: string, headers: Record<string, string> = FORM): SweepProbe => ({
    family: 'POST /oauth/token',
    label,
    call: { origin, method: 'POST', path: '/oauth/token', headers, body },
  })
  for (const [asks, params] of Object.entries(tokenBodies(clientId, redirectUri, victimRefreshToken))) {
    const plain = new URLSearchParams(params).toString()
    for (const [label, body] of repeatedParameters(params, inject)) probes.push(post(`${asks}: ${label}`, body))
    for (const [label, authorization] of ODD_AUTHORIZATIONS) {
      const withoutClient = new URLSearchParams(params.filter(([key]) => key !== 'client_id')).toString()
      probes.push(post(`${asks}: ${label}`, withoutClient, { ...FORM, Authorization: authorization }))
    }
    for (const [label, headers] of CONTENT_TYPES) probes.push(post(`${asks}: ${label}`, plain, headers))
  }
  return probes
}

export function registrationProbes(origin: string, redirectUri: string): SweepProbe[] {
  const valid = `{"client_name":"Sweep","redirect_uris":["${redirectUri}"],"token_endpoint_auth_method":"none"}`
  const bodies: [string, string][] = [
    ['client_name twice', `{"client_name":"a","client_name":"b","redirect_uris":["${redirectUri}"]}`],
    ['redirect_uris twice', `{"redirect_uris":["${redirectUri}"],"redirect_uris":["https://evil.example/cb"]}`],
    ['a redirect URI listed twice', `{"redirect_uris":["${redirectUri}","${redirectUri}"]}`],
    ['a client_id of its own', `{"client_id":"${PRIVATE_CLIENT_URL}","redirect_uris":["${redirectUri}"]}`],
    [
      'a private jwks_uri',
      `{"redirect_uris":["${redirectUri}"],"jwks_uri":"https://10.0.0.8/jwks","token_endpoint_auth_method":"private_key_jwt"}`,
    ],
    [
      'a private logo and policy',
      `{"redirect_uris":["${redirectUri}"],"logo_uri":"https://10.0.0.8/l.png","policy_uri":"http://127.0.0.1/p"}`,
    ],
    ['grant_types twice', `{"redirect_uris":["${redirectUri}"],"grant_types":["authorization_code"],"grant_types":["password"]}`],
    ['a NUL in the name', `{"client_name":"a\\u0000b","redirect_uris":["${redirectUri}"]}`],
    ['a trailing comma', `{"redirect_uris":["${redirectUri}"],}`],
    ['a BOM first', `\uFEFF${valid}`],
  ]
  const probes: SweepProbe[] = []
  const post = (label: string, body: string, headers: Record<string, string>, method = 'POST'): SweepProbe => ({
    family: 'POST /oauth/register',
    label,
    call: { origin, method, path: '/oauth/register', headers, ...(method === 'GET' ? {} : { body }) },
  })
  const json = { 'Content-Type': 'application/json' }
  for (const [label, body] of bodies) probes.push(post(label, body, json))
  for (const [label, authorization] of ODD_AUTHORIZATIONS) probes.push(post(label, valid, { ...json, Authorization: authorization }))
  for (const [label, headers] of CONTENT_TYPES) probes.push(post(label, valid, headers))
  for (const method of ['GET', 'PUT', 'DELETE', 'PATCH'])
    probes.push({ ...post(method, valid, json, method), family: `${method} /oauth/register` })
  return probes
}

/** The authorization request's usual query, with a client that does not exist. */
export function authorizeParams(clientId: string, redirectUri: string): [string, string][] {
  return [
    ['response_type', 'code'],
    ['client_id', clientId],
    ['redirect_uri', redirectUri],
    ['state', 'sweep'],
    ['scope', 'requests:read'],
    ['resource', 'http://localhost:8787/mcp'],
    ['code_challenge', 'c'.repeat(43)],
    ['code_challenge_method', 'S256'],
  ]
}

export function authorizeProbes(origin: string, params: [string, string][], cookie: string | null, csrf: string): SweepProbe[] {
  const who = cookie ? 'signed in' : 'signed out'
  const session: Record<string, string> = cookie ? { Cookie: cookie } : {}
  const probes: SweepProbe[] = []
  const get = (label: string, query: string, headers: Record<string, string> = {}): SweepProbe => ({
    family: `GET /oauth/authorize (${who})`,
    label,
    call: { origin, method: 'GET', path: `/oauth/authorize?${query}`, headers: { ...session, ...headers } },
  })
  for (const [label, query] of repeatedParameters(params, inject)) probes.push(get(label, query))
  const plain = new URLSearchParams(params).toString()
  for (const [label, authorization] of ODD_AUTHORIZATIONS) probes.push(get(label, plain, { Authorization: authorization }))
  const form = [
    ['handle', 'no-such-handle'],
    ['_csrf', csrf],
    ['decision', 'approve'],
    ['scope', 'requests:read'],
  ] as [string, string][]
  for (const [label, body] of repeatedParameters(form)) {
    probes.push({
      family: `POST /oauth/authorize (${who})`,
      label,
      call: { origin, method: 'POST', path: `/oauth/authorize?${plain}`, headers: { ...session, ...FORM }, body },
    })
  }
  return probes
}

export const WELL_KNOWN = [
  '/.well-known/oauth-authorization-server',
  '/.well-known/oauth-authorization-server/mcp',
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/mcp',
  '/.well-known/oauth-protected-resource/api/v1',
  '/.well-known/openid-configuration',
]

export function wellKnownProbes(origin: string): SweepProbe[] {
  return WELL_KNOWN.flatMap((path) => [
    ...['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'].map((method) => ({
      family: `${method === 'GET' ? 'GET' : 'other methods'} /.well-known/*`,
      label: `${method} ${path}`,
      call: { origin, method, path, headers: method === 'POST' ? FORM : {}, ...(method === 'POST' ? { body: 'a=1&a=2' } : {}) },
    })),
    ...ODD_AUTHORIZATIONS.map(([label, authorization]) => ({
      family: 'GET /.well-known/*',
      label: `${path}: ${label}`,
      call: { origin, method: 'GET', path: `${path}?resource=a&resource=b`, headers: { Authorization: authorization } },
    })),
  ])
}
