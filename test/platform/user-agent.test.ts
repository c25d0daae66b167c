// The client's User-Agent: a browser's, always (shared/reference/resy-api.md, "Corrections and additions"), and the
// sandbox, like the platform's firewall, refuses anything else with the plain-text 500 (resy-api.md, "Corrections (third review)").
// With it, the web app's other headers: Accept, Origin and Referer (resy-api.md, "Corrections (third review)", web-origin.ts).
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createPlatformClient } from '../../src/platform/client'
import { DEFAULT_USER_AGENT, isBrowserUserAgent, userAgentFor } from '../../src/platform/user-agent'

/** The sandbox behind a fetcher that remembers the User-Agent (and the whole request) of every call. */
function recordingClient(userAgent?: string, webOrigin?: string) {
  const sent: (string | null)[] = []
  const requests: Request[] = []
  const fetcher = env.PLATFORM
  if (!fetcher) throw new Error('PLATFORM binding missing')
  const platform = createPlatformClient({
    fetcher: {
      fetch: (request: Request) => {
        sent.push(request.headers.get('User-Agent'))
        requests.push(request.clone())
        return fetcher.fetch(request)
      },
    },
    baseUrl: `https://${crypto.randomUUID()}.sandbox.test`,
    apiKey: env.PLATFORM_API_KEY,
    timeoutMs: 3000,
    retryDelaysMs: [],
    userAgent,
    webOrigin,
  })
  return { platform, sent, requests }
}

describe('the client’s User-Agent', () => {
  it('is a current desktop Chrome by default, and the platform (sandbox) accepts it', async () => {
    const { platform, sent } = recordingClient()
    expect((await platform.searchVenues('juniper')).kind).toBe('ok')
    expect(sent).toEqual([DEFAULT_USER_AGENT])
    expect(DEFAULT_USER_AGENT).toMatch(/^Mozilla\/5\.0 \(Windows NT 10\.0; Win64; x64\) .* Chrome\/\d{3}\.0\.0\.0 Safari\/537\.36$/)
  })

  it('is the deployment’s own browser string when one is configured', async () => {
    const firefox = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:140.0) Gecko/20100101 Firefox/140.0'
    const { platform, sent } = recordingClient(firefox)
    expect((await platform.searchVenues('juniper')).kind).toBe('ok')
    expect(sent).toEqual([firefox])
  })

  it.each(['Tablewatch/0.1 (reservation watcher)', 'node-fetch/1.0', 'python-requests/2.32.3', '', '   '])(
    'never sends a non-browser one, even when configured (%j)',
    async (configured) => {
      const { platform, sent } = recordingClient(configured)
      expect((await platform.searchVenues('juniper')).kind).toBe('ok')
      expect(sent).toEqual([DEFAULT_USER_AGENT])
    },
  )

  it('tells browser strings from product and library ones', () => {
    expect(isBrowserUserAgent(DEFAULT_USER_AGENT)).toBe(true)
    expect(
      isBrowserUserAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/153.0.0.0 Safari/537.36'),
    ).toBe(false)
    expect(userAgentFor('curl/8.9.1')).toBe(DEFAULT_USER_AGENT)
  })
})

describe('the web app’s other headers', () => {
  const headersOf = (r: Request) => [r.headers.get('Accept'), r.headers.get('Origin'), r.headers.get('Referer')]

  it('are Accept and Origin/Referer https://resy.com on every call by default, and the platform (sandbox) books with them', async () => {
    const { platform, requests } = recordingClient()
    const login = await platform.login('ada@example.com', 'pw')
    if (login.kind !== 'ok') throw new Error(login.kind)
    const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)
    const found = await platform.findSlots({ venueId: 60105, day, partySize: 2 })
    const slot = found.kind === 'ok' ? found.value[0] : undefined
    if (!slot) throw new Error('no table offered')
    const details = await platform.bookingDetails(login.value, { configId: slot.configId, day, partySize: 2 })
    if (details.kind !== 'ok') throw new Error(details.kind)
    expect(
      (await platform.book(login.value, { bookToken: details.value.bookToken, paymentMethodId: login.value.paymentMethodId })).kind,
    ).toBe('booked')
    expect(requests.map((r) => new URL(r.url).pathname)).toContain('/3/book')
    for (const r of requests) expect(headersOf(r)).toEqual(['application/json, text/plain, */*', 'https://resy.com', 'https://resy.com/'])
  })

  it('name the booking widget’s origin when the deployment chooses it, and never another', async () => {
    const widgets = recordingClient(undefined, 'https://widgets.resy.com')
    expect((await widgets.platform.searchVenues('juniper')).kind).toBe('ok')
    expect(headersOf(widgets.requests[0] as Request).slice(1)).toEqual(['https://widgets.resy.com', 'https://widgets.resy.com/'])
    const other = recordingClient(undefined, 'https://evil.example')
    expect((await other.platform.searchVenues('juniper')).kind).toBe('ok')
    expect(headersOf(other.requests[0] as Request).slice(1)).toEqual(['https://resy.com', 'https://resy.com/'])
  })
})
