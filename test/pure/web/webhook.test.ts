import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { sendWebhook, webhookUrlSchema } from '../../../src/notifications/webhook'
import { webhookPayload } from '../../../src/notifications/webhook-body'

const message = (title: string, text: string, link: string | null = null) =>
  webhookPayload('json', { kind: 'test', title, text, link, requestId: null, groups: [], sentAt: 0 })

const PRODUCTION = { allowLoopbackHttp: false }
const LOCAL = { allowLoopbackHttp: true }

/** A real HTTP handler standing in for the user's receiver; it records what arrives. */
function receiver(status = 200) {
  const received: { contentType: string | undefined; body: unknown }[] = []
  const app = new Hono()
  app.post('/hook', async (c) => {
    received.push({ contentType: c.req.header('content-type'), body: await c.req.json() })
    return c.text('ok', status as 200)
  })
  return { received, fetcher: (request: Request) => Promise.resolve(app.fetch(request)) }
}

describe('sendWebhook', () => {
  it('posts the body of the chosen format', async () => {
    const { received, fetcher } = receiver()
    const result = await sendWebhook(
      'https://hooks.example/hook',
      message('Table found', 'Lilia, Dec 5, 19:00', 'https://tw.example/r/1'),
      { fetcher, policy: PRODUCTION },
    )
    expect(result).toEqual({ ok: true, status: 200 })
    expect(received).toEqual([
      {
        contentType: 'application/json',
        body: {
          version: 1,
          kind: 'test',
          title: 'Table found',
          text: 'Lilia, Dec 5, 19:00',
          link: 'https://tw.example/r/1',
          request_id: null,
          sent_at: '1970-01-01T00:00:00.000Z',
          groups: [],
        },
      },
    ])
  })

  it('reports a receiver that refuses', async () => {
    const { fetcher } = receiver(410)
    expect(await sendWebhook('https://hooks.example/hook', message('t', 'x'), { fetcher, policy: PRODUCTION })).toEqual({
      ok: false,
      reason: 'rejected',
      status: 410,
    })
  })

  it('gives up after the timeout', async () => {
    const silent = (request: Request) =>
      new Promise<Response>((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)))
    const started = Date.now()
    const result = await sendWebhook('https://hooks.example/hook', message('t', 'x'), {
      fetcher: silent,
      timeoutMs: 50,
      policy: PRODUCTION,
    })
    expect(result).toEqual({ ok: false, reason: 'timeout' })
    expect(Date.now() - started).toBeLessThan(2_000)
  })
})

describe('webhook URLs in production', () => {
  it.each(['https://ntfy.sh/topic', 'https://hooks.slack.com/services/T0/B0/x', 'https://8.8.8.8/hook', 'https://[2606:4700::1111]/x'])(
    'accepts %s',
    (url) => {
      expect(webhookUrlSchema(PRODUCTION).safeParse(url).success).toBe(true)
    },
  )

  // The probe's targets, then the same places in other notations.
  it.each([
    'https://169.254.169.254/latest/meta-data/',
    'https://10.0.0.1/',
    'http://127.0.0.1:8787/',
    'http://2130706433/',
    'http://0x7f.0.0.1/',
    'https://2130706433/',
    'https://0x7f.0.0.1/',
    'https://0177.0.0.1/',
    'https://127.1/',
    'https://0/',
    'https://172.16.5.4/',
    'https://192.168.1.1/',
    'https://100.64.0.1/',
    'https://224.0.0.1/',
    'https://255.255.255.255/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:a9fe:a9fe]/',
    'https://[fd00::1]/',
    'https://[fe80::1]/',
    'https://[ff02::1]/',
    'https://[64:ff9b::a00:1]/',
    'https://[2001:db8::1]/',
    'https://localhost/',
    'https://localhost./',
    'https://printer.local/',
    'https://metadata.google.internal/',
    'https://router/',
    'https://ntfy.sh:8443/topic',
    'https://ntfy.sh:22/',
    'http://ntfy.sh/topic',
    'http://localhost:8080/hook',
    'ftp://example.com/x',
    'javascript:alert(1)',
    'ntfy.sh/topic',
  ])('refuses %s', (url) => {
    expect(webhookUrlSchema(PRODUCTION).safeParse(url).success).toBe(false)
  })
})

describe('webhook URLs in local development', () => {
  it.each(['http://localhost:8080/hook', 'http://127.0.0.1:9101/hook', 'http://[::1]:9101/x', 'https://ntfy.sh/topic'])(
    'accepts %s',
    (url) => {
      expect(webhookUrlSchema(LOCAL).safeParse(url).success).toBe(true)
    },
  )

  it.each(['http://10.0.0.1/', 'https://169.254.169.254/', 'http://hooks.example.com/x'])('still refuses %s', (url) => {
    expect(webhookUrlSchema(LOCAL).safeParse(url).success).toBe(false)
  })
})

describe('sending to a URL saved before the rules', () => {
  it('is refused without a request', async () => {
    const { received, fetcher } = receiver()
    const result = await sendWebhook('http://127.0.0.1:8787/hook', message('t', 'x'), { fetcher, policy: PRODUCTION })
    expect(result).toEqual({ ok: false, reason: 'refused' })
    expect(received).toEqual([])
  })
})
