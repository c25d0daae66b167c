// A push endpoint belongs to the user who registered it. Another user who knows its URL (it is no
// secret to the push service's other customers) cannot move it to themselves by subscribing with
// it or by renewing their own subscription to it: the refusal says nothing of whose it is, and the
// owner's subscription stays where it was. Before, both moved it and the owner's alerts stopped.
import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { WebClient } from '../web/web-client'
import { b64u, browserKeys } from './rfc8291'

async function subscription(endpoint = `https://fcm.googleapis.com/fcm/send/${crypto.randomUUID()}`) {
  const keys = await browserKeys()
  return { endpoint, expirationTime: null, keys: { p256dh: b64u(keys.publicKey), auth: b64u(keys.authSecret) } }
}

/** What public/push.js sends from the settings page. */
async function subscribe(client: WebClient, body: unknown): Promise<Response> {
  const token = await client.csrfFrom('/settings')
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  return client.fetcher(
    new Request(`${client.origin}/settings/push/subscriptions`, {
      method: 'POST',
      headers: { 'CF-Connecting-IP': client.address, 'Content-Type': 'application/json', 'x-csrf-token': token, Cookie: cookie },
      body: JSON.stringify(body),
    }),
  )
}

const renew = (body: unknown) =>
  SELF.fetch('http://localhost:8787/push/renewals', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })

async function ownersOf(endpoint: string): Promise<string[]> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(endpoint))
  const hash = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
  const rows = await env.DB.prepare('select u.email from push_subscriptions p join users u on u.id = p.user_id where p.endpoint_hash = ?')
    .bind(hash)
    .all<{ email: string }>()
  return rows.results.map((row) => row.email)
}

async function twoDiners() {
  const owner = new WebClient()
  const ownerEmail = await owner.newUser()
  const owned = await subscription()
  expect((await subscribe(owner, owned)).status).toBe(201)
  const other = new WebClient()
  const otherEmail = await other.newUser()
  return { owner, ownerEmail, owned, other, otherEmail }
}

describe('a push endpoint belongs to the user who registered it', () => {
  it('another user subscribing with it is refused, told nothing of whose it is, and the owner keeps it', async () => {
    const { ownerEmail, owned, other } = await twoDiners()
    const refused = await subscribe(other, await subscription(owned.endpoint))
    expect(refused.status).toBe(422)
    const body = await refused.text()
    expect(JSON.parse(body)).toEqual({
      code: 'invalid_request',
      message:
        'This push subscription cannot be used. Turn notifications for this site off and on again in the browser, then turn push on here.',
    })
    expect(body).not.toContain(ownerEmail)
    expect(await ownersOf(owned.endpoint)).toEqual([ownerEmail])
    expect([...(await (await other.get('/settings')).text()).matchAll(/data-push-subscription="/g)]).toHaveLength(0)
  })

  it('the owner subscribing again with it still replaces their own', async () => {
    const { owner, ownerEmail, owned } = await twoDiners()
    expect((await subscribe(owner, await subscription(owned.endpoint))).status).toBe(201)
    expect(await ownersOf(owned.endpoint)).toEqual([ownerEmail])
  })

  it('another user renewing their own subscription to it is refused as an unknown one, and both stay as they were', async () => {
    const { ownerEmail, owned, other, otherEmail } = await twoDiners()
    const own = await subscription()
    expect((await subscribe(other, own)).status).toBe(201)
    const moved = await renew({ old: own, new: await subscription(owned.endpoint) })
    const unknown = await renew({ old: await subscription(), new: await subscription() })
    expect([moved.status, unknown.status]).toEqual([404, 404])
    expect(await moved.json()).toEqual(await unknown.json())
    expect(await ownersOf(owned.endpoint)).toEqual([ownerEmail])
    expect(await ownersOf(own.endpoint)).toEqual([otherEmail])
  })
})
