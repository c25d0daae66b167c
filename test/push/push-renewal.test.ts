// A browser's renewed subscription (pushsubscriptionchange), sent by the service worker to
// /push/renewals with the subscription it replaces. The earlier subscription's auth secret is the
// credential; the stored browser moves to the new endpoint, once, whatever arrives in parallel.
import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { WebClient } from '../web/web-client'
import { b64u, browserKeys } from './rfc8291'

async function subscription() {
  const keys = await browserKeys()
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/${crypto.randomUUID()}`,
    expirationTime: null,
    keys: { p256dh: b64u(keys.publicKey), auth: b64u(keys.authSecret) },
  }
}

/** A signed-in diner with push on in one browser, as public/push.js turns it on. */
async function dinerWithPush() {
  const client = new WebClient()
  const email = await client.newUser()
  const token = await client.csrfFrom('/settings')
  const first = await subscription()
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  const res = await client.fetcher(
    new Request(`${client.origin}/settings/push/subscriptions`, {
      method: 'POST',
      headers: { 'CF-Connecting-IP': client.address, 'Content-Type': 'application/json', 'x-csrf-token': token, Cookie: cookie },
      body: JSON.stringify(first),
    }),
  )
  expect(res.status).toBe(201)
  const user = await env.DB.prepare('select id from users where email = ?').bind(email).first<{ id: string }>()
  return { first, userId: user?.id ?? '' }
}

const renew = (body: unknown) =>
  SELF.fetch('http://localhost:8787/push/renewals', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })

async function endpointHashesOf(userId: string): Promise<string[]> {
  const rows = await env.DB.prepare('select endpoint_hash from push_subscriptions where user_id = ?')
    .bind(userId)
    .all<{ endpoint_hash: string }>()
  return rows.results.map((r) => r.endpoint_hash)
}

async function hashOf(endpoint: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(endpoint))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

describe('a renewed push subscription', () => {
  it('moves the browser to the new subscription, with no session or form token', async () => {
    const { first, userId } = await dinerWithPush()
    const next = await subscription()
    const answer = await renew({ old: first, new: next })
    expect(answer.status).toBe(200)
    expect(await endpointHashesOf(userId)).toEqual([await hashOf(next.endpoint)])
  })

  it('takes one of several parallel renewals of the same subscription; the others change nothing', async () => {
    const { first, userId } = await dinerWithPush()
    const candidates = await Promise.all(Array.from({ length: 6 }, () => subscription()))
    const answers = await Promise.all(candidates.map((next) => renew({ old: first, new: next })))
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404, 404, 404, 404])
    const winner = candidates[answers.findIndex((a) => a.status === 200)]
    expect(await endpointHashesOf(userId)).toEqual([await hashOf(winner?.endpoint ?? '')])
  })

  it('refuses another browser’s secret and an unknown endpoint alike, and changes nothing', async () => {
    const { first, userId } = await dinerWithPush()
    const stranger = await subscription()
    const wrongSecret = await renew({ old: { ...first, keys: stranger.keys }, new: await subscription() })
    const unknown = await renew({ old: stranger, new: await subscription() })
    expect([wrongSecret.status, unknown.status]).toEqual([404, 404])
    expect(await wrongSecret.json()).toEqual(await unknown.json())
    expect(await endpointHashesOf(userId)).toEqual([await hashOf(first.endpoint)])
  })

  it('refuses a renewal that is not two subscriptions, with the reason', async () => {
    const { first, userId } = await dinerWithPush()
    const answer = await renew({ old: first, new: { endpoint: 'http://10.0.0.1/x', keys: first.keys } })
    expect(answer.status).toBe(422)
    expect(await answer.json()).toMatchObject({ code: 'invalid_request', message: 'A push endpoint must use https' })
    expect(await endpointHashesOf(userId)).toEqual([await hashOf(first.endpoint)])
  })
})
