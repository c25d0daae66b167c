// The client's User-Agent: a browser's, always (shared/reference/resy-api.md §10), and the
// sandbox, like the platform's firewall, refuses anything else with an empty-body 500.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createPlatformClient } from '../../src/platform/client'
import { DEFAULT_USER_AGENT, isBrowserUserAgent, userAgentFor } from '../../src/platform/user-agent'

/** The sandbox behind a fetcher that remembers the User-Agent of every call. */
function recordingClient(userAgent?: string) {
  const sent: (string | null)[] = []
  const fetcher = env.PLATFORM
  if (!fetcher) throw new Error('PLATFORM binding missing')
  const platform = createPlatformClient({
    fetcher: {
      fetch: (request: Request) => {
        sent.push(request.headers.get('User-Agent'))
        return fetcher.fetch(request)
      },
    },
    baseUrl: `https://${crypto.randomUUID()}.sandbox.test`,
    apiKey: env.PLATFORM_API_KEY,
    timeoutMs: 3000,
    retryDelaysMs: [],
    userAgent,
  })
  return { platform, sent }
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
