// Times rendered on the server before the page script has reported the viewer's zone: what belongs
// to a dinner (a table, a reservation) is in its restaurant's zone; a moment (when something
// happened: a notice, a token's expiry) in the viewer's, which is the zone Cloudflare located the
// request in (`request.cf.timezone`) until the page script reports it; never UTC when either is known.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { dbOf } from '../../src/db/client'
import { insertNotification } from '../../src/db/notifications'
import { createOk, validSpec } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'
import { WebClient } from './web-client'

beforeAll(seedVenues)

/** A browser that Cloudflare locates in `zone` and whose page script has not run yet (no `tz` cookie). */
function locatedIn(zone: string | undefined): WebClient {
  return new WebClient(undefined, undefined, (request) => SELF.fetch(new Request(request, zone ? { cf: { timezone: zone } } : {})))
}

/** "Sat, Nov 28 · 9:30 PM" and a zone name. */
const STYLED = /[A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}(, \d{4})? · \d{1,2}:\d{2} [AP]M ([A-Z]{2,4}(?:[+-]\d{1,2})?)/g

function zonesIn(html: string): string[] {
  return [...html.matchAll(STYLED)].map((m) => m[2] ?? '')
}

describe('times before the page script runs', () => {
  it("writes a token's times in the zone Cloudflare located the browser in, and the tz cookie still wins", async () => {
    const client = locatedIn('America/Denver')
    await client.newUser()
    await client.createToken('Zone test')
    expect(new Set(zonesIn(await (await client.get('/assistants')).text()))).toEqual(new Set(['MT']))
    client.cookies.set('tz', 'Asia/Tokyo')
    expect(new Set(zonesIn(await (await client.get('/assistants')).text()))).toEqual(new Set(['GMT+9']))
  })

  it('writes UTC only when neither is known', async () => {
    const client = locatedIn(undefined)
    await client.newUser()
    await client.createToken('Zone test')
    expect(new Set(zonesIn(await (await client.get('/assistants')).text()))).toEqual(new Set(['UTC']))
  })

  it("dates an inbox notice (a moment) in the viewer's zone, and the dinner's tables in the restaurant's", async () => {
    const client = locatedIn('America/Denver')
    const email = await client.newUser()
    const token = await client.createToken()
    const view = await createOk(token, validSpec({ title: 'Zone dinner' }))
    const user = await env.DB.prepare('select id from users where email = ?').bind(email).first<{ id: string }>()
    await insertNotification(dbOf(env.DB), {
      userId: user?.id ?? '',
      requestId: String(view.id),
      dedupeKey: crypto.randomUUID(),
      kind: 'table_found',
      title: 'Tables at Lilac Trattoria',
      body: 'A table opened.',
      link: `/requests/${String(view.id)}`,
      createdAt: Date.now(),
      groups: [
        {
          restaurant: 'Lilac Trattoria',
          venueId: 1,
          date: '2026-12-05',
          timeZone: 'America/New_York',
          tables: [{ time: '19:00', when: 'Sat, Dec 5 · 7:00 PM ET', seating: 'Bar', fee: null, note: null, link: 'https://resy.com/' }],
        },
      ],
    })
    const html = await (await client.get('/notifications')).text()
    const item = /<li class="item[^"]*">[\s\S]*?Tables at Lilac Trattoria[\s\S]*?<\/li>/.exec(html)?.[0] ?? ''
    // The notice's moment first (Denver), then its table (New York).
    expect(zonesIn(item)).toEqual(['MT', 'ET'])
  })
})
