// Pairing a device opens a page of its own: the code large, and when it stops
// working in the diner's zone, in the answer to the form (the code is never in a URL).
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { WebClient } from './web-client'

/** A browser Cloudflare locates in Denver, whose page script has not reported a zone yet. */
const inDenver = () =>
  new WebClient(undefined, undefined, (request) => SELF.fetch(new Request(request, { cf: { timezone: 'America/Denver' } })))

describe('the pairing page', () => {
  it('shows the code large with its expiry in the diner zone, not the settings page', async () => {
    const client = inDenver()
    await client.newUser()
    const res = await client.post('/settings/devices/pair', { _csrf: await client.csrfFrom('/settings') })
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('<h1>Pair a device</h1>')
    expect(html).not.toContain('Where Tablewatch checks your account and books')
    expect(html).toMatch(/<p class="pairing-code" data-testid="user-code"[^>]*>[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}<\/p>/)
    const expiry = /<time datetime="([^"]+)">([^<]+)<\/time>/.exec(html)
    expect(Date.parse(expiry?.[1] ?? '') - Date.now()).toBeGreaterThan(9 * 60_000)
    expect(expiry?.[2]).toMatch(/^[A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}(, \d{4})? · \d{1,2}:\d{2} [AP]M MT$/)
    expect(html).toContain('(10 minutes)')

    // The tz cookie the page script sets wins.
    client.cookies.set('tz', 'Europe/Paris')
    const again = await (await client.post('/settings/devices/pair', { _csrf: await client.csrfFrom('/settings') })).text()
    expect(/<time datetime="[^"]+">([^<]+)<\/time>/.exec(again)?.[1]).toMatch(/ (CET|CEST|GMT\+1|GMT\+2)$/)
  })
})
