// The sandbox's demo control ("Open a matching table now" on a request's page) exists
// only in local development with the sandbox behind the PLATFORM binding. This pool runs with
// production's rules (LOCAL_DEVELOPMENT off) though the sandbox is bound: there the button is not
// rendered and its route answers 404, as it does locally without the binding. Locally with the
// sandbox it is shown to the owner, CSRF-checked, and nobody else reaches it. The whole story (a
// table opened, booked and verified) is test/e2e/demo-control.test.ts.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import worker from '../../src/index'
import { createOk, validSpec } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'
import { WebClient } from './web-client'

beforeAll(seedVenues)

const BUTTON = 'Open a matching table now'

/** A client of the worker running with `overrides` on the pool's env. */
function clientWith(overrides: Partial<Cloudflare.Env>): WebClient {
  return new WebClient('http://localhost', undefined, async (request) => {
    const ctx = createExecutionContext()
    const res = await worker.fetch(request, { ...env, ...overrides }, ctx)
    await waitOnExecutionContext(ctx)
    return res
  })
}

/** A signed-in owner and an active (alert_only) request an assistant created for them. */
async function ownerWithRequest(owner: WebClient): Promise<string> {
  await owner.newUser()
  const token = await owner.createToken()
  const view = await createOk(token, validSpec({ title: 'Demo dinner' }))
  expect(view.status).toBe('active')
  return String(view.id)
}

async function pressButton(client: WebClient, id: string): Promise<Response> {
  return client.post(`/requests/${id}/demo-table`, { _csrf: await client.csrfFrom(`/requests/${id}`) })
}

describe('the demo control', () => {
  it('is neither shown nor reachable under production rules, even with the sandbox bound', async () => {
    expect(env.LOCAL_DEVELOPMENT).toBe('off')
    expect(env.PLATFORM).toBeDefined()
    const owner = new WebClient()
    const id = await ownerWithRequest(owner)
    const page = await owner.get(`/requests/${id}`)
    expect(page.status).toBe(200)
    expect(await page.text()).not.toContain(BUTTON)
    const pressed = await pressButton(owner, id)
    expect(pressed.status).toBe(404)
    expect(await pressed.text()).toContain('Page not found')
  })

  it('is neither shown nor reachable locally without the sandbox binding', async () => {
    const owner = clientWith({ LOCAL_DEVELOPMENT: 'on', PLATFORM: undefined })
    const id = await ownerWithRequest(owner)
    expect(await (await owner.get(`/requests/${id}`)).text()).not.toContain(BUTTON)
    expect((await pressButton(owner, id)).status).toBe(404)
  })

  it('locally with the sandbox: shown to the owner, refused without the form token, not found for anyone else', async () => {
    const owner = clientWith({ LOCAL_DEVELOPMENT: 'on' })
    const id = await ownerWithRequest(owner)
    const html = await (await owner.get(`/requests/${id}`)).text()
    expect(html).toContain(BUTTON)
    expect(html).toContain(`action="/requests/${id}/demo-table"`)
    expect((await owner.post(`/requests/${id}/demo-table`, {})).status).toBe(403)
    const stranger = clientWith({ LOCAL_DEVELOPMENT: 'on' })
    await stranger.newUser()
    expect((await stranger.post(`/requests/${id}/demo-table`, { _csrf: await stranger.csrfFrom('/requests') })).status).toBe(404)
    // No platform account is connected here, so the request watches nothing yet: the owner is told why.
    const pressed = await pressButton(owner, id)
    expect(pressed.status).toBe(409)
    expect(await pressed.text()).toContain('is not watching any venue-day right now')
  })
})
