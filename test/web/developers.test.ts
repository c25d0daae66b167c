import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { api } from '../helpers/api'
import { createUserWithToken } from '../helpers/auth'

describe('developers page and skill file', () => {
  it('serves skill.md as markdown that declares version 1.0.0', async () => {
    const res = await SELF.fetch('http://localhost/developers/skill.md')
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('text/markdown; charset=utf-8')
    const text = await res.text()
    expect(text.startsWith('---\n')).toBe(true)
    const frontMatter = text.split('\n---\n')[0] ?? ''
    expect(frontMatter).toMatch(/^version: 1\.0\.0$/m)
  })

  it('returns the same file from /developers when markdown is asked for', async () => {
    const file = await (await SELF.fetch('http://localhost/developers/skill.md')).text()
    const negotiated = await SELF.fetch('http://localhost/developers', { headers: { Accept: 'text/markdown' } })
    expect(negotiated.headers.get('Content-Type')).toBe('text/markdown; charset=utf-8')
    expect(negotiated.headers.get('Vary')).toContain('Accept')
    expect(await negotiated.text()).toBe(file)
  })

  it('gives people an HTML page by default', async () => {
    const res = await SELF.fetch('http://localhost/developers', { headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } })
    expect(res.headers.get('Content-Type')).toContain('text/html')
    const html = await res.text()
    expect(html).toContain('REST with a personal access token')
    expect(html).toContain('MCP with OAuth')
    expect(html).toContain('href="/developers/skill.md"')
  })

  it("names the service's own addresses and the rules an assistant must follow", async () => {
    const text = await (await SELF.fetch('http://localhost/developers/skill.md')).text()
    expect(text).not.toContain('{base_url}')
    expect(text).toContain('http://localhost:8787/api/v1')
    expect(text).toContain('http://localhost:8787/mcp')
    for (const phrase of [
      'verified: true',
      'action_url',
      'Never ask the user to paste an access token',
      'Idempotency-Key',
      'never cancels a reservation',
      'Do not create a second request for the same dinner',
      'terms prohibit automated access',
      'at most once every few minutes',
      'requests:write',
      'reservations:read',
    ]) {
      expect(text).toContain(phrase)
    }
  })

  // The examples a newcomer copies must find something in the sandbox under npm start.
  it.each([
    ['the Developers page', 'http://localhost/developers'],
    ['skill.md', 'http://localhost/developers/skill.md'],
  ])("%s searches for a venue the sandbox has, and its spec names that venue's id", async (_label, url) => {
    const text = (await (await SELF.fetch(url)).text()).replaceAll('&quot;', '"')
    const query = /restaurants\?q=([a-z]+)/i.exec(text)?.[1]
    const venueId = Number(/"venue_ids":\s*\[(\d+)/.exec(text)?.[1])
    expect(query, 'an example search').toBeTruthy()
    const { token } = await createUserWithToken()
    const found = await api(`/restaurants?q=${query}`, { token })
    expect(found.status).toBe(200)
    const restaurants = found.body.restaurants as { venue_id: number; name: string }[]
    expect(restaurants.map((r) => r.venue_id)).toContain(venueId)
  })
})
