import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { sendWebhook, webhookUrlSchema } from '../../src/notifications/webhook'

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
  it('posts ntfy/Slack-style JSON with title, text and link', async () => {
    const { received, fetcher } = receiver()
    const result = await sendWebhook(
      'https://hooks.example/hook',
      { title: 'Table found', text: 'Lilia, Dec 5, 19:00', link: 'https://tw.example/r/1' },
      { fetcher },
    )
    expect(result).toEqual({ ok: true, status: 200 })
    expect(received).toEqual([
      {
        contentType: 'application/json',
        body: { title: 'Table found', text: 'Lilia, Dec 5, 19:00\nhttps://tw.example/r/1', link: 'https://tw.example/r/1' },
      },
    ])
  })

  it('reports a receiver that refuses', async () => {
    const { fetcher } = receiver(410)
    expect(await sendWebhook('https://hooks.example/hook', { title: 't', text: 'x' }, { fetcher })).toEqual({
      ok: false,
      reason: 'rejected',
      status: 410,
    })
  })

  it('gives up after the timeout', async () => {
    const silent = (request: Request) =>
      new Promise<Response>((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)))
    const started = Date.now()
    const result = await sendWebhook('https://hooks.example/hook', { title: 't', text: 'x' }, { fetcher: silent, timeoutMs: 50 })
    expect(result).toEqual({ ok: false, reason: 'timeout' })
    expect(Date.now() - started).toBeLessThan(2_000)
  })
})

describe('webhook URLs', () => {
  it.each(['https://ntfy.sh/topic', 'http://localhost:8080/hook', 'http://127.0.0.1/hook'])('accepts %s', (url) => {
    expect(webhookUrlSchema.safeParse(url).success).toBe(true)
  })

  it.each(['http://example.com/hook', 'ftp://example.com/x', 'javascript:alert(1)', 'ntfy.sh/topic'])('refuses %s', (url) => {
    expect(webhookUrlSchema.safeParse(url).success).toBe(false)
  })
})
