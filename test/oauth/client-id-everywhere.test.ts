// The metadata-document address rule (https, public host, port 443,
// length) holds whatever form a client id arrives in, at every endpoint that takes one, the way
// the library reads it (a repeated client_id whose first value is empty, HTTP Basic with odd
// spacing, a client assertion's `iss`, URLs the parser rewrites), and a document's redirect is
// never followed. Before, /oauth/token read only the first client_id, `Basic ` with one space and
// the assertion when no client_id was sent, so the library fetched what the check never saw.
//
// The client's site stands in behind the Worker's outbound fetch (as in
// client-id-document.test.ts) and answers as fetch does: a redirect is followed unless the caller
// asked for `redirect: 'manual'`. Every URL it is asked for is recorded.
import { SELF } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { authorizePath, metadataDocument, ORIGIN, pkcePair, REDIRECT_URI, signedInBrowser } from './oauth-client'

const PRIVATE = 'https://192.0.2.2:9444/c'
const PUBLIC = 'https://assistant.example.com/oauth/client.json'

/** Any https site: `redirects` maps a URL to where it sends the caller; anything else serves a document for itself. */
function clientSites(redirects: Record<string, string> = {}): string[] {
  const asked: string[] = []
  const passThrough = globalThis.fetch
  const site: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    if (!url.startsWith('https://')) return passThrough(input, init)
    asked.push(url)
    const to = redirects[url]
    if (!to) return Response.json(metadataDocument(url), { headers: { 'Cache-Control': 'no-store' } })
    // As fetch does: a redirect is followed unless the caller asked for it as it is.
    if ((init?.redirect ?? (input instanceof Request ? input.redirect : 'follow')) === 'follow') return site(to, init)
    return new Response(null, { status: 302, headers: { Location: to } })
  }
  vi.spyOn(globalThis, 'fetch').mockImplementation(site)
  return asked
}

afterEach(() => {
  vi.restoreAllMocks()
})

const basic = (user: string, separator = ' ') => `Basic${separator}${btoa(`${encodeURIComponent(user)}:secret`)}`
const base64Url = (value: unknown) => btoa(JSON.stringify(value)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
const assertion = (iss: string) => `${base64Url({ alg: 'ES256', typ: 'JWT' })}.${base64Url({ iss, sub: iss, aud: ORIGIN })}.c2ln`

/** A token-endpoint call: the body as sent (repeats kept), and optional headers. */
async function tokenCall(body: string, headers: Record<string, string> = {}): Promise<{ status: number; error: unknown }> {
  const res = await SELF.fetch(`${ORIGIN}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body,
  })
  const text = await res.text()
  return { status: res.status, error: text ? (JSON.parse(text) as { error?: unknown }).error : undefined }
}

const q = encodeURIComponent
/** Each way a token request can name a client, with the body's grant part in front. */
const clientForms = (grant: string, clientId: string): [string, string, Record<string, string>][] => [
  ['a repeated client_id, the first empty', `${grant}&client_id=&client_id=${q(clientId)}`, {}],
  ['a repeated client_id, the first a registered id', `${grant}&client_id=abc&client_id=${q(clientId)}`, {}],
  ['an empty client_id and Basic', `${grant}&client_id=`, { Authorization: basic(clientId) }],
  ['Basic with a tab', grant, { Authorization: basic(clientId, '\t') }],
  ['Basic in capitals with two spaces', grant, { Authorization: basic(clientId, '  ').replace('Basic', 'BASIC') }],
  [
    'a client assertion whose iss is the URL',
    `${grant}&client_assertion_type=${q('urn:ietf:params:oauth:client-assertion-type:jwt-bearer')}&client_assertion=${assertion(clientId)}`,
    {},
  ],
]

const GRANTS = {
  'a code exchange': `grant_type=authorization_code&code=x&redirect_uri=${q(REDIRECT_URI)}&code_verifier=v`,
  'a refresh': 'grant_type=refresh_token&refresh_token=usr_x%3Agrant%3Asecret',
  'a revocation': 'token=usr_x%3Agrant%3Asecret&token_type_hint=refresh_token',
}

describe('the client id at the token endpoint, in every form', () => {
  for (const [what, grant] of Object.entries(GRANTS)) {
    it.each(clientForms(grant, PRIVATE))(
      `${what}: %s naming a private non-443 address is refused, with nothing fetched`,
      async (_f, body, headers) => {
        const asked = clientSites()
        const answer = await tokenCall(body, headers)
        expect(answer.status).toBeGreaterThanOrEqual(400)
        expect(answer.status).toBeLessThan(500)
        expect(asked).toEqual([])
      },
    )
  }

  it.each([
    'HTTPS://10.0.0.8/c.json',
    ' https://10.0.0.8/c.json',
    'https:/10.0.0.8/c.json',
    'https://0x7f.1/c.json',
    'https://2130706433/c.json',
    'https://[::ffff:127.0.0.1]/c.json',
    'https://localhost./c.json',
    'https://metadata.internal/c.json',
    `https://assistant.example.com/${'a'.repeat(2100)}`,
  ])('a client id the URL parser rewrites, or too long (%s), is refused before any fetch', async (clientId) => {
    const asked = clientSites()
    const answer = await tokenCall(`${GRANTS['a code exchange']}&client_id=${q(clientId)}`)
    expect(answer.status).toBe(401)
    expect(answer.error).toBe('invalid_client')
    expect(asked).toEqual([])
  })
})

describe('the client id at the authorization endpoint', () => {
  it.each([
    ['repeated, the private one second', (p: string) => p.replace(/client_id=[^&]+/, `client_id=abc&client_id=${q(PRIVATE)}`)],
    ['repeated, the first empty', (p: string) => p.replace(/client_id=[^&]+/, `client_id=&client_id=${q(PRIVATE)}`)],
    ['rewritten by the parser', (p: string) => p.replace(/client_id=[^&]+/, `client_id=${q('HTTPS:/10.0.0.8/c.json')}`)],
  ])('%s: refused with nothing fetched', async (_what, change) => {
    const asked = clientSites()
    const { web } = await signedInBrowser()
    const { challenge } = await pkcePair()
    const path = change(authorizePath({ client: { client_id: PUBLIC, redirect_uris: [REDIRECT_URI] }, challenge, method: 'S256' }))
    const page = await web.get(path)
    expect(page.status).toBe(400)
    expect(asked).toEqual([])
  })
})

describe('a metadata document that redirects', () => {
  it('is not followed to a private address: the client is refused and only the public URL was asked', async () => {
    const asked = clientSites({ [PUBLIC]: 'https://10.0.0.8/internal.json' })
    const answer = await tokenCall(`${GRANTS['a code exchange']}&client_id=${q(PUBLIC)}`)
    expect([answer.status, answer.error]).toEqual([401, 'invalid_client'])
    expect(asked).toEqual([PUBLIC])
  })

  it('is not followed at the consent page either', async () => {
    const asked = clientSites({ [PUBLIC]: 'https://10.0.0.8/internal.json' })
    const { web } = await signedInBrowser()
    const { challenge } = await pkcePair()
    const page = await web.get(authorizePath({ client: { client_id: PUBLIC, redirect_uris: [REDIRECT_URI] }, challenge, method: 'S256' }))
    expect(page.status).toBe(400)
    expect(asked).toEqual([PUBLIC])
  })

  it('is not followed to another public address either (a document is served where its client_id says)', async () => {
    const elsewhere = 'https://other.example.net/client.json'
    const asked = clientSites({ [PUBLIC]: elsewhere })
    const answer = await tokenCall(`${GRANTS['a code exchange']}&client_id=${q(PUBLIC)}`)
    expect([answer.status, answer.error]).toEqual([401, 'invalid_client'])
    expect(asked).toEqual([PUBLIC])
  })
})
