import { SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { createOk, validSpec } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'
import { WebClient } from './web-client'

beforeAll(seedVenues)

describe('the requests page', () => {
  it("lists the user's requests from every token, newest first, with status and approval link", async () => {
    const owner = new WebClient()
    await owner.newUser()
    const first = await createOk(await owner.createToken(), validSpec({ title: 'Anniversary dinner' }))
    const second = await createOk(
      await owner.createToken(),
      validSpec({ title: 'Birthday table', mode: 'auto_book', earliest_time: '12:00', latest_time: '13:00' }),
    )

    const res = await owner.get('/requests')
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html.indexOf('Birthday table')).toBeGreaterThan(-1)
    expect(html.indexOf('Birthday table')).toBeLessThan(html.indexOf('Anniversary dinner'))
    expect(html).toContain(`href="/requests/${String(first.id)}"`)
    expect(html).toContain('Review and approve')
    expect(html).toContain(String(second.action_url))
  })

  it("does not show another user's requests", async () => {
    const alice = new WebClient()
    await alice.newUser()
    await createOk(await alice.createToken(), validSpec({ title: 'Alice only' }))
    const bob = new WebClient()
    await bob.newUser()
    const html = await (await bob.get('/requests')).text()
    expect(html).not.toContain('Alice only')
    expect(html).toContain('No requests yet')
  })

  it('sends a signed-out visitor to sign in', async () => {
    const res = await SELF.fetch('http://localhost/requests', { redirect: 'manual' })
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe('/signin?next=%2Frequests')
  })
})
