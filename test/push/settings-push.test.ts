// The settings page's Web Push section and routes, through the worker: the section
// shows the VAPID key and the iOS note; the subscription arrives as JSON with the CSRF header;
// every route refuses a missing token, and acts on the session's user only.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { vapidOf } from '../../src/notifications/push/vapid'
import { WebClient } from '../web/web-client'
import { b64u, browserKeys } from './rfc8291'

const ANDROID = 'Mozilla/5.0 (Linux; Android 15) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Mobile Safari/537.36'

async function subscriptionJson() {
  const keys = await browserKeys()
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/${crypto.randomUUID()}`,
    expirationTime: null,
    keys: { p256dh: b64u(keys.publicKey), auth: b64u(keys.authSecret) },
  }
}

/** What public/push.js sends: the subscription as JSON, the page's token in x-csrf-token. */
function postSubscription(client: WebClient, body: string, headers: Record<string, string>) {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  return client.fetcher(
    new Request(`${client.origin}/settings/push/subscriptions`, {
      method: 'POST',
      headers: { 'CF-Connecting-IP': client.address, 'User-Agent': ANDROID, Cookie: cookie, ...headers },
      body,
      redirect: 'manual',
    }),
  )
}

const ids = async (client: WebClient) =>
  [...(await (await client.get('/settings')).text()).matchAll(/data-push-subscription="([^"]+)"/g)].map((m) => m[1])

describe('the settings page’s push section', () => {
  it('offers push with the VAPID public key and says what iOS needs', async () => {
    const client = new WebClient()
    await client.newUser()
    const page = await (await client.get('/settings')).text()
    expect(page).toContain('<h2 id="push-heading">Push notifications</h2>')
    expect(page).toContain(`data-push-key="${vapidOf(env, 'http://localhost')?.publicKey}"`)
    expect(page).toContain('push reaches only a site added to the Home Screen')
    expect(page).toContain('No browser has push on yet.')
    expect(page).toContain('<link rel="manifest" href="/manifest.webmanifest"/>')
  })

  it('stores a subscription sent with the page’s token, lists it with its browser, and removes it', async () => {
    const client = new WebClient()
    await client.newUser()
    const token = await client.csrfFrom('/settings')
    const created = await postSubscription(client, JSON.stringify(await subscriptionJson()), {
      'Content-Type': 'application/json',
      'x-csrf-token': token,
    })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: string }
    const page = await (await client.get('/settings?done=push_on')).text()
    expect(page).toContain('Push is on for this browser.')
    expect(page).toContain('<strong>Chrome on Android</strong>')
    expect(page).toContain('Send a test push')
    expect(await ids(client)).toEqual([id])

    const removed = await client.post(`/settings/push/${id}/remove`, { _csrf: token })
    expect(removed.status).toBe(303)
    expect(removed.headers.get('Location')).toBe('/settings?done=push_removed')
    expect(await ids(client)).toEqual([])
  })

  it('refuses a subscription without the token, from another site, not JSON or not a subscription, and stores nothing', async () => {
    const client = new WebClient()
    await client.newUser()
    const token = await client.csrfFrom('/settings')
    const good = JSON.stringify(await subscriptionJson())
    const json = { 'Content-Type': 'application/json' }
    expect((await postSubscription(client, good, json)).status).toBe(403)
    expect((await postSubscription(client, good, { ...json, 'x-csrf-token': token, 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403)
    const form = await postSubscription(client, good, { 'Content-Type': 'text/plain', 'x-csrf-token': token })
    expect(form.status).toBe(415)
    const broken = await postSubscription(client, '{"endpoint":', { ...json, 'x-csrf-token': token })
    expect([broken.status, await broken.json()]).toEqual([422, { code: 'invalid_request', message: 'The body is not JSON.' }])
    const http = await postSubscription(client, JSON.stringify({ ...JSON.parse(good), endpoint: 'http://fcm.googleapis.com/x' }), {
      ...json,
      'x-csrf-token': token,
    })
    expect([http.status, await http.json()]).toEqual([422, { code: 'invalid_request', message: 'A push endpoint must use https' }])
    expect(await ids(client)).toEqual([])
  })

  it('lets nobody remove another user’s browser, and refuses the remove and test forms without a token', async () => {
    const owner = new WebClient()
    await owner.newUser()
    const ownerToken = await owner.csrfFrom('/settings')
    const created = await postSubscription(owner, JSON.stringify(await subscriptionJson()), {
      'Content-Type': 'application/json',
      'x-csrf-token': ownerToken,
    })
    const { id } = (await created.json()) as { id: string }

    const other = new WebClient()
    await other.newUser()
    const otherToken = await other.csrfFrom('/settings')
    const refused = await other.post(`/settings/push/${id}/remove`, { _csrf: otherToken })
    expect(refused.status).toBe(404)
    expect(await refused.text()).toContain('That browser no longer has push on.')
    expect((await owner.post(`/settings/push/${id}/remove`, {})).status).toBe(403)
    expect((await owner.post('/settings/push/test', {})).status).toBe(403)
    expect(await ids(owner)).toEqual([id])
    expect(await (await other.get('/settings')).text()).not.toContain(id)
  })

  it('refuses the test form to a signed-out visitor', async () => {
    const res = await new WebClient().post('/settings/push/test', {})
    expect([302, 303, 403]).toContain(res.status)
  })
})
