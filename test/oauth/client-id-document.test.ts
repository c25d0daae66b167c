// Client ID Metadata Documents: a client whose client_id is an https URL is
// resolved from the document published there (the library fetches it; here the document is
// served by a stand-in for the client's site through the Worker's outbound fetch), and the
// service refuses to fetch a document from an address that is not public. This suite runs with
// production's rules (LOCAL_DEVELOPMENT off); local development's loopback exception is tested
// end to end in test/e2e/mcp-hosts-2026.test.ts.
import { SELF } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { callTool } from '../mcp/mcp-client'
import {
  authorizePath,
  consent,
  MCP_RESOURCE,
  metadataDocument,
  ORIGIN,
  pkcePair,
  REDIRECT_URI,
  signedInBrowser,
  tokenRequest,
} from './oauth-client'

const CLIENT_ID = 'https://assistant.example.com/oauth/client-metadata.json'
const LOOPBACK_CLIENT_ID = 'https://127.0.0.1:8443/oauth/client-metadata.json'

/** The client's site: serves its metadata document; every URL it was asked for is recorded. */
function serveDocuments(): string[] {
  const asked: string[] = []
  const passThrough = globalThis.fetch
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    if (!url.startsWith('https://assistant.example.com/') && !url.startsWith('https://127.0.0.1')) return passThrough(input, init)
    asked.push(url)
    return Response.json(metadataDocument(url), { headers: { 'Cache-Control': 'max-age=300' } })
  })
  return asked
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('Client ID Metadata Documents', () => {
  it('are advertised in the authorization server metadata', async () => {
    const res = await SELF.fetch(`${ORIGIN}/.well-known/oauth-authorization-server`)
    const metadata = (await res.json()) as Record<string, unknown>
    expect(metadata.client_id_metadata_document_supported).toBe(true)
    expect(metadata.registration_endpoint).toBe(`${ORIGIN}/oauth/register`)
  })

  it('let a client named by its document URL connect, with its domain on the consent page, and call a tool', async () => {
    const asked = serveDocuments()
    const { web } = await signedInBrowser()
    const { verifier, challenge } = await pkcePair()
    const path = authorizePath({ client: { client_id: CLIENT_ID, redirect_uris: [REDIRECT_URI] }, challenge, method: 'S256' })
    const page = await web.get(path)
    const html = await page.text()
    expect(page.status).toBe(200)
    expect(html).toContain('Allow Example Assistant to use your Tablewatch account?')
    expect(html).toContain('Published by <strong>assistant.example.com</strong>')

    const back = await consent(web, path, ['restaurants:read', 'requests:read'])
    const tokens = await tokenRequest({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code') ?? '',
      redirect_uri: REDIRECT_URI,
      client_id: CLIENT_ID,
      code_verifier: verifier,
      resource: MCP_RESOURCE,
    })
    expect(tokens.status).toBe(200)
    const listed = await callTool(tokens.body.access_token, 'svc_list_requests', {})
    expect(listed.isError, listed.text).toBe(false)
    expect(listed.structured?.requests).toEqual([])
    expect(asked.length).toBeGreaterThan(0)
    expect(new Set(asked)).toEqual(new Set([CLIENT_ID]))
  })

  it('are never fetched from a loopback or private address outside local development', async () => {
    const asked = serveDocuments()
    const { web } = await signedInBrowser()
    const { challenge } = await pkcePair()
    for (const clientId of [
      LOOPBACK_CLIENT_ID,
      'https://localhost/cb.json',
      'https://10.0.0.8/cb.json',
      'https://example.com:8443/cb.json',
    ]) {
      const page = await web.get(
        authorizePath({ client: { client_id: clientId, redirect_uris: [REDIRECT_URI] }, challenge, method: 'S256' }),
      )
      expect(page.status, clientId).toBe(400)
      expect(await page.text()).toContain('client_id must')
      const token = await tokenRequest({
        grant_type: 'authorization_code',
        code: 'x',
        redirect_uri: REDIRECT_URI,
        client_id: clientId,
        code_verifier: 'v',
      })
      expect(token.status).toBe(401)
      expect(token.body.error).toBe('invalid_client')
    }
    expect(asked).toEqual([])
  })
})
