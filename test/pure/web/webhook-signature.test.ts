// Alert webhooks are signed: HMAC-SHA-256 under the user's secret over `<timestamp>.<body>`, in
// `Tablewatch-Timestamp` and `Tablewatch-Signature: v1=<hex>`. A receiver checking as the
// Developers page says accepts the real post and refuses a changed body, an old timestamp, and a
// post signed with a secret that was rotated away. The stored webhook is sealed and shown masked.
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { sendWebhook } from '../../../src/notifications/webhook'
import { webhookPayload } from '../../../src/notifications/webhook-body'
import { maskedWebhookUrl, openWebhookConfig, sealWebhookConfig } from '../../../src/notifications/webhook-config'
import { newWebhookSecret, signatureHeaders, verifyWebhookSignature } from '../../../src/notifications/webhook-signature'

const KEY = btoa(String.fromCharCode(...new Uint8Array(32).fill(7)))
const payload = webhookPayload('json', {
  kind: 'test',
  title: 'Table found',
  text: 'Lilia, 19:00',
  link: null,
  requestId: null,
  groups: [],
  sentAt: 0,
})

/** A receiver over real HTTP handling that keeps what arrived, headers and body as sent. */
function receiver() {
  const received: { headers: Headers; body: string }[] = []
  const app = new Hono()
  app.post('/hook', async (c) => {
    received.push({ headers: new Headers(c.req.raw.headers), body: await c.req.text() })
    return c.text('ok')
  })
  return { received, fetcher: (request: Request) => Promise.resolve(app.fetch(request)) }
}

describe('webhook signatures', () => {
  it('a signed post verifies under its secret, and only under it', async () => {
    const { received, fetcher } = receiver()
    const secret = newWebhookSecret()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/)
    expect(
      await sendWebhook('https://hooks.example/hook', payload, { fetcher, policy: { allowLoopbackHttp: false }, signingSecret: secret }),
    ).toEqual({
      ok: true,
      status: 200,
    })
    const [post] = received
    if (!post) throw new Error('nothing arrived')
    expect(post.headers.get('Tablewatch-Timestamp')).toMatch(/^\d{10}$/)
    expect(post.headers.get('Tablewatch-Signature')).toMatch(/^v1=[0-9a-f]{64}$/)
    expect(await verifyWebhookSignature(secret, post.headers, post.body, Date.now())).toBe(true)
    // A rotated-away secret, a changed body, and a replay ten minutes later are all refused.
    expect(await verifyWebhookSignature(newWebhookSecret(), post.headers, post.body, Date.now())).toBe(false)
    expect(await verifyWebhookSignature(secret, post.headers, `${post.body} `, Date.now())).toBe(false)
    expect(await verifyWebhookSignature(secret, post.headers, post.body, Date.now() + 600_000)).toBe(false)
  })

  it('signs the timestamp with the body: a fresh timestamp on an old signature does not verify', async () => {
    const secret = newWebhookSecret()
    const old = await signatureHeaders(secret, payload.body, Date.now() - 600_000)
    const headers = new Headers({ ...old, 'Tablewatch-Timestamp': String(Math.floor(Date.now() / 1000)) })
    expect(await verifyWebhookSignature(secret, headers, payload.body, Date.now())).toBe(false)
  })

  it('a webhook without a secret (saved before signing) posts unsigned', async () => {
    const { received, fetcher } = receiver()
    await sendWebhook('https://hooks.example/hook', payload, { fetcher, policy: { allowLoopbackHttp: false }, signingSecret: null })
    expect(received[0]?.headers.has('Tablewatch-Signature')).toBe(false)
  })
})

describe('the stored webhook', () => {
  it('is sealed to its user: neither the URL nor the secret is readable, and another user cannot open it', async () => {
    const config = { url: 'https://hooks.slack.com/services/T000/B000/XXXXSECRETXXXX', secret: newWebhookSecret() }
    const stored = await sealWebhookConfig(KEY, 'usr_a', config)
    expect(stored).not.toContain('hooks.slack.com')
    expect(stored).not.toContain(config.secret)
    expect(await openWebhookConfig(KEY, 'usr_a', stored)).toEqual(config)
    expect(await openWebhookConfig(KEY, 'usr_b', stored)).toBeNull()
    expect(await openWebhookConfig(KEY, 'usr_a', 'https://ntfy.sh/old-topic')).toEqual({ url: 'https://ntfy.sh/old-topic', secret: null })
  })

  it('is shown masked: the host and the last four characters, never the secret part', () => {
    expect(maskedWebhookUrl('https://hooks.slack.com/services/T000/B000/XXXXSECRETXXXX')).toBe('https://hooks.slack.com/…XXXX')
    expect(maskedWebhookUrl('https://ntfy.sh/my-tables')).toBe('https://ntfy.sh/…')
  })
})
