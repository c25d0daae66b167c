// Bodies are capped at 64 KB on every route outside /api/v1, and an anonymous
// form that is certain to be refused is refused before its body is read.
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'

const ORIGIN = 'http://localhost:8787'
/** 3,000 fields, 70 KB: over the cap, like the probe's 48 MB body but cheap to build. */
const OVERSIZED = Array.from({ length: 3_000 }, (_, i) => `f${i}=${'x'.repeat(18)}`).join('&')

const PAGES = ['/signin', '/signup', '/settings/notifications', '/oauth/authorize']
const JSON_ROUTES = ['/account/platform/connect', '/oauth/register', '/oauth/token', '/mcp']

function post(path: string, body: BodyInit, type = 'application/x-www-form-urlencoded') {
  return SELF.fetch(`${ORIGIN}${path}`, { method: 'POST', headers: { 'Content-Type': type }, body })
}

/** The same bytes as a stream, so no Content-Length tells the size in advance. */
function streamed(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text)
  return new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 8_192) controller.enqueue(bytes.slice(i, i + 8_192))
      controller.close()
    },
  })
}

describe('body limit outside /api/v1', () => {
  it.each(PAGES)('refuses a 70 KB form to %s with the 413 page', async (path) => {
    const res = await post(path, OVERSIZED)
    expect(res.status).toBe(413)
    expect(res.headers.get('content-type')).toContain('text/html')
    expect(await res.text()).toContain('Tablewatch accepts forms up to 64 KB.')
  })

  it.each(JSON_ROUTES)('refuses a 70 KB body to %s with a JSON 413', async (path) => {
    const res = await post(path, OVERSIZED)
    expect(res.status).toBe(413)
    expect(res.headers.get('content-type')).toContain('application/json')
  })

  it('counts the bytes of a body sent without a Content-Length', async () => {
    const res = await SELF.fetch(`${ORIGIN}/signin`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: streamed(OVERSIZED),
      duplex: 'half',
    } as RequestInit)
    expect(res.status).toBe(413)
  })

  it('leaves a form under the limit alone', async () => {
    const res = await post('/signin', 'email=a%40example.com&password=x')
    expect(res.status).toBe(403) // no CSRF cookie: refused as before, not for its size
  })
})

/**
 * A body that sends its first bytes and then never ends: whoever waits for all of it waits
 * forever. Sent with a Content-Length, as a browser's form is, so the size check needs no reading.
 */
function neverEnding(): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('email=a%40example.com&password='))
    },
  })
}

describe('an anonymous form without a CSRF cookie', () => {
  it('is answered without reading its body: a body that never ends still gets the 403', async () => {
    const answer = SELF.fetch(`${ORIGIN}/signin`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': '60000' },
      body: neverEnding(),
      duplex: 'half',
    } as RequestInit)
    const waited = new Promise<'still reading the body'>((resolve) => setTimeout(() => resolve('still reading the body'), 5_000))
    const res = await Promise.race([answer, waited])
    expect(res).not.toBe('still reading the body')
    expect(res instanceof Response && res.status).toBe(403)
  })

  it('is refused, not a 500, when its body cannot be parsed', async () => {
    const res = await post('/signin', '--broken\r\nnot a multipart body', 'multipart/form-data; boundary=elsewhere')
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('This form has expired')
  })
})
