// Web Push (issue 25) in workerd: a local push service (a real HTTP handler, like a push service's
// endpoint) receives what the service sends for an alert, and the test decrypts it as the browser
// would (RFC 8291, test/push/rfc8291.ts) and checks the VAPID signature (RFC 8292). 404/410 drop
// the subscription; other failures are retried, then recorded; switches and the daily cap apply.
import { env } from 'cloudflare:test'
import { Hono } from 'hono'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { digestAlert } from '../../src/alerts/digest-alert'
import type { DigestTable } from '../../src/alerts/notice'
import { pushSettingsOf, sendTestPush, turnOffPush, turnOnPush } from '../../src/alerts/push-settings'
import { dbOf } from '../../src/db/client'
import { users } from '../../src/db/schema'
import { AppError } from '../../src/errors'
import { type Alert, notifyUser } from '../../src/notifications/notify'
import { vapidOf } from '../../src/notifications/push/vapid'
import { depsOf } from '../../src/runtime/deps'
import { type BrowserKeys, b64u, browserKeys, decryptPush, verifiedVapid } from './rfc8291'

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1'
const PUSH_ORIGIN = 'https://push.tablewatch-tests.dev'

interface Received {
  id: string
  headers: Headers
  body: Uint8Array
}

/** A push service: answers each subscription with the statuses given (then 201), and keeps what arrived. */
function pushService(statuses: Record<string, number[]> = {}) {
  const received: Received[] = []
  const app = new Hono()
  app.post('/push/:id', async (c) => {
    const id = c.req.param('id')
    received.push({ id, headers: new Headers(c.req.raw.headers), body: new Uint8Array(await c.req.arrayBuffer()) })
    const status = statuses[id]?.shift() ?? 201
    return c.body(null, status as 201)
  })
  return { received, fetcher: (request: Request) => Promise.resolve(app.fetch(request)) }
}

async function newUser(prefs: Partial<typeof users.$inferInsert> = {}) {
  const id = `usr_push${crypto.randomUUID().slice(0, 8)}`
  await dbOf(env.DB)
    .insert(users)
    .values({ id, email: `${id}@example.test`, createdAt: Date.now(), ...prefs })
  return id
}

async function browser(id = crypto.randomUUID()) {
  const keys = await browserKeys()
  const endpoint = `${PUSH_ORIGIN}/push/${id}`
  return {
    id,
    keys,
    endpoint,
    json: { endpoint, expirationTime: null, keys: { p256dh: b64u(keys.publicKey), auth: b64u(keys.authSecret) } },
  }
}

function depsWith(service: ReturnType<typeof pushService>) {
  return { ...depsOf(env), pushFetcher: service.fetcher, pushSleep: async () => {} }
}

/** notify's background work (webhook, push), awaited so the test sees its effects. */
async function notified(deps: ReturnType<typeof depsWith>, alert: Alert) {
  const background: Promise<unknown>[] = []
  await notifyUser(deps, alert, (work) => background.push(work))
  await Promise.all(background)
}

const table = (venueName: string, venueId: number, day: string, time: string): DigestTable => ({
  venueId,
  day,
  time,
  seatingType: 'Dining Room',
  venueName,
  venuePage: `https://resy.com/cities/ny/venues/${venueName.toLowerCase().replace(/ /g, '-')}`,
  fee: null,
  note: null,
  key: `${venueId}:${day}:${time}`,
})

const dinnerAlert = (userId: string, n = 1) =>
  digestAlert(
    { requestId: `sr_push${n}`, userId, partySize: 4, timeZone: 'America/New_York' },
    [table('Pomelo Garden', 60110, '2026-12-05', '19:30'), table('Pomelo Garden', 60110, '2026-12-05', '20:00')],
    'http://localhost:8787',
  )

const payloadOf = async (message: Received | undefined, keys: BrowserKeys) => {
  if (!message) throw new Error('no push message arrived')
  return JSON.parse(await decryptPush(message.body, keys)) as { title: string; body: string; url: string; tag: string }
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('Web Push delivery', () => {
  it('sends the alert’s digest to the browser, encrypted for it and signed with VAPID; the browser decrypts one naming the dinner', async () => {
    const service = pushService()
    const deps = depsWith(service)
    const userId = await newUser()
    const phone = await browser()
    await turnOnPush(deps, userId, phone.json, IPHONE)
    const alert = dinnerAlert(userId)
    await notified(deps, alert)

    expect(service.received.map((m) => m.id)).toEqual([phone.id])
    const [message] = service.received
    expect(message?.headers.get('content-encoding')).toBe('aes128gcm')
    expect(message?.headers.get('ttl')).toBe('3600')
    expect(message?.headers.get('urgency')).toBe('high')
    const vapid = await verifiedVapid(message?.headers.get('authorization') ?? null, phone.endpoint)
    expect(vapid.publicKey).toBe(vapidOf(env, deps.baseUrl)?.publicKey)
    expect(vapid.claims.sub).toBe('mailto:push-tests@tablewatch.example')

    const payload = await payloadOf(message, phone.keys)
    expect(payload.title).toBe(alert.title)
    // The title names the request and what the alert holds; the body the soonest tables and their restaurant.
    expect(payload.title).toBe('Your table for 4: 2 tables, Sat, Dec 5 · soonest 7:30 PM ET')
    expect(payload.body).toBe(
      '2 tables for 4 at 1 restaurant on 1 date.\nSat, Dec 5 · 7:30 PM ET · Pomelo Garden\nSat, Dec 5 · 8:00 PM ET · Pomelo Garden',
    )
    // A tap opens the alert's primary action: the one restaurant-date's page on the platform.
    expect(payload.url).toBe(alert.link)
    expect(payload.url).toContain('pomelo-garden')

    const [shown] = (await pushSettingsOf(deps, userId)).subscriptions
    expect(shown).toMatchObject({ label: 'Safari on iPhone', lastSuccessAt: deps.now, lastFailure: null })
  })

  it('drops the subscriptions the push service answers 410 and 404, and keeps delivering to the others', async () => {
    const gone = await browser()
    const unknown = await browser()
    const kept = await browser()
    const service = pushService({ [gone.id]: [410], [unknown.id]: [404] })
    const deps = depsWith(service)
    const userId = await newUser()
    for (const b of [gone, unknown, kept]) await turnOnPush(deps, userId, b.json, IPHONE)
    await notified(deps, dinnerAlert(userId))

    expect(service.received.map((m) => m.id).sort()).toEqual([gone.id, unknown.id, kept.id].sort())
    const left = (await pushSettingsOf(deps, userId)).subscriptions
    expect(left).toHaveLength(1)
    expect(left[0]?.lastSuccessAt).toBe(deps.now)
    expect(
      await payloadOf(
        service.received.find((m) => m.id === kept.id),
        kept.keys,
      ),
    ).toMatchObject({ title: expect.stringContaining('Your table for 4: 2 tables') })
  })

  it('tries a busy push service again (503, 429) and delivers; a lasting 503 is kept on the subscription and logged without its secrets', async () => {
    const recovers = await browser()
    const busy = await browser()
    const service = pushService({ [recovers.id]: [503, 429], [busy.id]: [503, 503, 503] })
    const deps = depsWith(service)
    const userId = await newUser()
    await turnOnPush(deps, userId, recovers.json, IPHONE)
    await turnOnPush(
      deps,
      userId,
      busy.json,
      'Mozilla/5.0 (Linux; Android 15) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Mobile Safari/537.36',
    )
    const logged: string[] = []
    for (const level of ['log', 'warn', 'error'] as const)
      vi.spyOn(console, level).mockImplementation((...args) => logged.push(args.join(' ')))
    await notified(deps, dinnerAlert(userId))

    expect(service.received.filter((m) => m.id === recovers.id)).toHaveLength(3)
    expect(service.received.filter((m) => m.id === busy.id)).toHaveLength(3)
    const byLabel = new Map((await pushSettingsOf(deps, userId)).subscriptions.map((s) => [s.label, s]))
    expect(byLabel.get('Safari on iPhone')).toMatchObject({ lastSuccessAt: deps.now, lastFailure: null })
    expect(byLabel.get('Chrome on Android')).toMatchObject({
      lastSuccessAt: null,
      lastFailureAt: deps.now,
      lastFailure: 'the push service answered 503 (tried 3 times)',
    })
    expect(logged.join('\n')).toContain('failed: the push service answered 503')
    for (const secret of [busy.endpoint, busy.id, busy.json.keys.p256dh, busy.json.keys.auth])
      expect(logged.join('\n')).not.toContain(secret)
  })

  it('pushes under the same switches and daily cap as email', async () => {
    const service = pushService()
    const deps = depsWith(service)
    const tablesOff = await newUser({ noticesOff: ['tables'] })
    const capOfOne = await newUser({ dailyAlertCap: 1 })
    const first = await browser()
    const second = await browser()
    await turnOnPush(deps, tablesOff, first.json, IPHONE)
    await turnOnPush(deps, capOfOne, second.json, IPHONE)
    await notified(deps, dinnerAlert(tablesOff, 1))
    await notified(deps, dinnerAlert(capOfOne, 2))
    await notified(deps, dinnerAlert(capOfOne, 3))
    expect(service.received.map((m) => m.id)).toEqual([second.id])
    // An alert told before (a retry, a second alarm) is not pushed again.
    await notified(deps, dinnerAlert(capOfOne, 2))
    expect(service.received).toHaveLength(1)
  })

  it('shortens a long alert to what one push message holds, and still delivers it', async () => {
    const service = pushService()
    const deps = depsWith(service)
    const userId = await newUser()
    const phone = await browser()
    await turnOnPush(deps, userId, phone.json, IPHONE)
    // Characters of three bytes each and a long link: too large for one message unless shortened by bytes.
    const link = `https://resy.com/cities/ny/venues/pomelo-garden?date=2026-12-05&seats=4&${'x'.repeat(1400)}`
    const long: Alert = {
      ...dinnerAlert(userId, 9),
      title: '寿司'.repeat(100),
      body: '寿司'.repeat(1000),
      short: '寿司'.repeat(1000),
      link,
    }
    await notified(deps, long)
    const payload = await payloadOf(service.received[0], phone.keys)
    expect(payload.body.endsWith('…')).toBe(true)
    expect(long.body.startsWith(payload.body.slice(0, -1))).toBe(true)
    expect(payload.url).toBe(link)
    expect(new TextEncoder().encode(JSON.stringify(payload)).length).toBeLessThanOrEqual(3993)
  })

  it('sends a test push to every browser of the user', async () => {
    const service = pushService()
    const deps = depsWith(service)
    const userId = await newUser()
    expect(await sendTestPush(deps, userId)).toEqual({ ok: false, reason: 'none' })
    const phone = await browser()
    await turnOnPush(deps, userId, phone.json, IPHONE)
    expect(await sendTestPush(deps, userId)).toEqual({ ok: true, report: { delivered: 1, dropped: 0, failed: 0 } })
    const payload = await payloadOf(service.received[0], phone.keys)
    expect(payload).toMatchObject({ title: 'Tablewatch test', url: 'http://localhost:8787/notifications' })
  })
})

describe('Web Push subscriptions', () => {
  const refusal = async (work: Promise<unknown>) => {
    const err = await work.then(
      () => null,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(AppError)
    return err instanceof AppError ? { code: err.code, message: err.message } : null
  }

  it('refuses what is not a public https push endpoint with good keys, and stores nothing', async () => {
    const deps = depsWith(pushService())
    const userId = await newUser()
    const good = (await browser()).json
    const cases: [unknown, string][] = [
      [{ ...good, endpoint: 'http://push.tablewatch-tests.dev/push/1' }, 'A push endpoint must use https'],
      [{ ...good, endpoint: 'https://169.254.169.254/latest' }, 'That address is not on the public internet'],
      [{ ...good, endpoint: 'https://localhost/push' }, 'Use a public host name, not a local one'],
      [{ ...good, endpoint: 'https://push.tablewatch-tests.dev:8443/push' }, 'A push endpoint must use the standard https port'],
      [{ ...good, keys: { ...good.keys, p256dh: b64u(new Uint8Array(64)) } }, 'keys.p256dh must be 65 bytes, base64url'],
      [{ ...good, keys: { ...good.keys, auth: 'not base64url!' } }, 'keys.auth must be 16 bytes, base64url'],
      [{ endpoint: good.endpoint }, 'Invalid input: expected object, received undefined'],
    ]
    for (const [input, message] of cases) {
      expect(await refusal(turnOnPush(deps, userId, input, IPHONE))).toEqual({ code: 'invalid_request', message })
    }
    expect((await pushSettingsOf(deps, userId)).subscriptions).toEqual([])
  })

  it('keeps one browser’s subscription with the user who registered it, stores its secrets sealed, and lets only its owner remove it', async () => {
    const deps = depsWith(pushService())
    const alice = await newUser()
    const bob = await newUser()
    const shared = await browser()
    const { id } = await turnOnPush(deps, alice, shared.json, IPHONE)
    expect(await refusal(turnOnPush(deps, bob, shared.json, IPHONE))).toMatchObject({ code: 'invalid_request' })
    expect((await pushSettingsOf(deps, bob)).subscriptions).toEqual([])
    expect((await pushSettingsOf(deps, alice)).subscriptions.map((s) => s.id)).toEqual([id])

    const rows = await env.DB.prepare('select * from push_subscriptions where user_id = ?').bind(alice).all()
    const stored = JSON.stringify(rows.results)
    for (const secret of [shared.endpoint, shared.json.keys.p256dh, shared.json.keys.auth]) expect(stored).not.toContain(secret)

    expect(await refusal(turnOffPush(deps, bob, id))).toEqual({ code: 'not_found', message: 'That browser no longer has push on.' })
    expect((await pushSettingsOf(deps, alice)).subscriptions).toHaveLength(1)
    await turnOffPush(deps, alice, id)
    expect((await pushSettingsOf(deps, alice)).subscriptions).toEqual([])
  })
})
