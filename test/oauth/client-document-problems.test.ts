// A Client ID Metadata Document the service cannot use is refused with one sentence per cause a
// host's developer can act on, on the consent page and at the token endpoint (before, "The app
// could not be verified" and "Client not found" for all), echoing nothing of the document; and a
// document is fetched at most once a minute (before, three times per consent page view when it
// sent no Cache-Control).
import { afterEach, describe, expect, it, vi } from 'vitest'
import { authorizePath, metadataDocument, pkcePair, REDIRECT_URI, signedInBrowser, tokenRequest } from './oauth-client'

afterEach(() => {
  vi.restoreAllMocks()
})

/** The client's site answering every fetch of its document with `answer(url)`; returns the URLs asked for. */
function site(answer: (url: string) => Response): string[] {
  const asked: string[] = []
  const passThrough = globalThis.fetch
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    if (!url.startsWith('https://assistant.example.com/')) return passThrough(input, init)
    asked.push(url)
    return answer(url)
  })
  return asked
}

const SECRET = 'do-not-echo-this-secret-value'

const CAUSES: [string, (url: string) => Response, string][] = [
  [
    'a redirect',
    () => new Response(null, { status: 302, headers: { Location: 'https://elsewhere.example.com/doc.json' } }),
    'answered with a redirect',
  ],
  ['not JSON', () => new Response(`<html>${SECRET}</html>`, { headers: { 'Content-Type': 'text/html' } }), 'is not a JSON object'],
  [
    'a client_id mismatch',
    () => Response.json({ ...metadataDocument('https://assistant.example.com/other.json'), client_name: SECRET }),
    'must be exactly the URL it is served from',
  ],
  ['over 5 KB', (url) => Response.json({ ...metadataDocument(url), padding: 'x'.repeat(6000) }), 'is larger than 5 KB'],
  ['a 500', () => new Response(SECRET, { status: 500 }), 'answered HTTP 500'],
  ['a 404', () => new Response(SECRET, { status: 404 }), 'answered HTTP 404'],
  ['no redirect URIs', (url) => Response.json({ ...metadataDocument(url), redirect_uris: [] }), 'at least one redirect URI'],
  ['no client_name', (url) => Response.json({ ...metadataDocument(url), client_name: '' }), 'must have a client_name'],
  ['a client secret', (url) => Response.json({ ...metadataDocument(url), client_secret: SECRET }), 'must not contain a client secret'],
]

describe('a metadata document the service cannot use', () => {
  it.each(CAUSES)(
    '%s: the consent page and the token endpoint say what to fix, echoing nothing of it',
    async (_cause, answer, sentence) => {
      site(answer)
      const clientId = `https://assistant.example.com/${crypto.randomUUID()}/client.json`
      const { web } = await signedInBrowser()
      const { challenge } = await pkcePair()
      const page = await web.get(
        authorizePath({ client: { client_id: clientId, redirect_uris: [REDIRECT_URI] }, challenge, method: 'S256' }),
      )
      expect(page.status).toBe(400)
      const html = await page.text()
      expect(html).toContain(sentence)
      expect(html).not.toContain(SECRET)
      const token = await tokenRequest({
        grant_type: 'authorization_code',
        code: 'x',
        redirect_uri: REDIRECT_URI,
        client_id: clientId,
        code_verifier: 'v',
      })
      expect([token.status, token.body.error]).toEqual([401, 'invalid_client'])
      expect(String(token.body.error_description)).toContain(sentence)
      expect(JSON.stringify(token.body)).not.toContain(SECRET)
    },
  )

  it('is fetched once a minute at most, however many pages and token calls ask for it', async () => {
    const asked = site((url) => Response.json(metadataDocument(url)))
    const clientId = `https://assistant.example.com/${crypto.randomUUID()}/client.json`
    const { web } = await signedInBrowser()
    const { challenge } = await pkcePair()
    const path = authorizePath({ client: { client_id: clientId, redirect_uris: [REDIRECT_URI] }, challenge, method: 'S256' })
    for (let i = 0; i < 3; i++) expect((await web.get(path)).status).toBe(200)
    expect(asked).toEqual([clientId])
  })
})
