// Times rendered on the server before the page script has reported the viewer's zone (issue 25,
// item 7): what belongs to a dinner is in its restaurant's zone, anything else in the zone
// Cloudflare located the request in (`request.cf.timezone`), never UTC when either is known.
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

  it("dates an inbox notice about a dinner in the restaurant's zone, whatever the viewer's", async () => {
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
    })
    const html = await (await client.get('/notifications')).text()
    const item = /<li class="item[^"]*">[\s\S]*?Tables at Lilac Trattoria[\s\S]*?<\/li>/.exec(html)?.[0] ?? ''
    expect(zonesIn(item)).toEqual(['ET'])
  })
})
