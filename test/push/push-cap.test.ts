// Push is on in at most 10 browsers per user, also when the subscriptions
// arrive at once. Before, the count was read before the insert: 25 sent in parallel through the
// settings route were all stored, and each alert then went to all of them.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { WebClient } from '../web/web-client'
import { b64u, browserKeys } from './rfc8291'

/** Browsers with push on per user, as the refusal states. */
const MAX_SUBSCRIPTIONS = 10

async function subscriptionJson(endpoint = `https://fcm.googleapis.com/fcm/send/${crypto.randomUUID()}`) {
  const keys = await browserKeys()
  return JSON.stringify({ endpoint, expirationTime: null, keys: { p256dh: b64u(keys.publicKey), auth: b64u(keys.authSecret) } })
}

/** What public/push.js sends from the settings page: the subscription as JSON, the page's token in x-csrf-token. */
function subscribe(client: WebClient, token: string, body: string): Promise<Response> {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  return client.fetcher(
    new Request(`${client.origin}/settings/push/subscriptions`, {
      method: 'POST',
      headers: { 'CF-Connecting-IP': client.address, 'Content-Type': 'application/json', 'x-csrf-token': token, Cookie: cookie },
      body,
      redirect: 'manual',
    }),
  )
}

async function storedFor(client: WebClient): Promise<number> {
  const html = await (await client.get('/settings')).text()
  return [...html.matchAll(/data-push-subscription="/g)].length
}

async function userIdOf(email: string): Promise<string> {
  const row = await env.DB.prepare('select id from users where email = ?').bind(email).first<{ id: string }>()
  return row?.id ?? ''
}

describe('the push cap', () => {
  it('holds for 25 subscriptions sent at once: 10 stored, 15 refused (422) with the reason', async () => {
    const client = new WebClient()
    const email = await client.newUser()
    const token = await client.csrfFrom('/settings')
    const bodies = await Promise.all(Array.from({ length: 25 }, () => subscriptionJson()))
    const answers = await Promise.all(bodies.map((body) => subscribe(client, token, body)))
    const statuses = answers.map((res) => res.status)
    expect(statuses.filter((status) => status === 201)).toHaveLength(MAX_SUBSCRIPTIONS)
    expect(statuses.filter((status) => status === 422)).toHaveLength(25 - MAX_SUBSCRIPTIONS)
    const refused = await Promise.all(answers.filter((res) => res.status === 422).map((res) => res.json()))
    expect(new Set(refused.map((body) => JSON.stringify(body)))).toEqual(
      new Set([JSON.stringify({ code: 'invalid_request', message: 'Push is on in 10 browsers already. Remove one first.' })]),
    )
    const rows = await env.DB.prepare('select count(*) as n from push_subscriptions where user_id = ?')
      .bind(await userIdOf(email))
      .first<{ n: number }>()
    expect(rows?.n).toBe(MAX_SUBSCRIPTIONS)
    expect(await storedFor(client)).toBe(MAX_SUBSCRIPTIONS)
  })

  it('at the cap, a browser that has push on already may subscribe again (it replaces its own)', async () => {
    const client = new WebClient()
    await client.newUser()
    const token = await client.csrfFrom('/settings')
    const endpoint = `https://fcm.googleapis.com/fcm/send/${crypto.randomUUID()}`
    expect((await subscribe(client, token, await subscriptionJson(endpoint))).status).toBe(201)
    for (let i = 1; i < MAX_SUBSCRIPTIONS; i++) expect((await subscribe(client, token, await subscriptionJson())).status).toBe(201)
    expect((await subscribe(client, token, await subscriptionJson())).status).toBe(422)
    expect((await subscribe(client, token, await subscriptionJson(endpoint))).status).toBe(201)
    expect(await storedFor(client)).toBe(MAX_SUBSCRIPTIONS)
  })

  it('a user at the cap cannot take another user’s browser away from them', async () => {
    const full = new WebClient()
    await full.newUser()
    const fullToken = await full.csrfFrom('/settings')
    for (let i = 0; i < MAX_SUBSCRIPTIONS; i++) await subscribe(full, fullToken, await subscriptionJson())
    const other = new WebClient()
    await other.newUser()
    const endpoint = `https://fcm.googleapis.com/fcm/send/${crypto.randomUUID()}`
    expect((await subscribe(other, await other.csrfFrom('/settings'), await subscriptionJson(endpoint))).status).toBe(201)
    expect((await subscribe(full, fullToken, await subscriptionJson(endpoint))).status).toBe(422)
    expect(await storedFor(other)).toBe(1)
  })
})
