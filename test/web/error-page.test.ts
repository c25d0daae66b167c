// The web app's onError: an error a page route throws becomes the HTML error page, never
// Hono's bare "Internal Server Error" text.
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { CSRF_HEADER } from '../../src/auth/csrf'
import { WebClient } from './web-client'

describe('the HTML error page', () => {
  it('answers a form body that cannot be parsed with a 422 page that says what to do', async () => {
    const client = new WebClient()
    await client.newUser()
    const csrf = await client.csrfFrom('/settings')
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const res = await SELF.fetch(`${client.origin}/settings/notifications`, {
      method: 'POST',
      headers: { Cookie: cookie, [CSRF_HEADER]: csrf, 'Content-Type': 'multipart/form-data; boundary=elsewhere' },
      body: '--broken\r\nnot a multipart body',
    })
    expect(res.status).toBe(422)
    expect(res.headers.get('Content-Type')).toMatch(/^text\/html/)
    const html = await res.text()
    expect(html).toContain('This form could not be read.')
    expect(html).toContain('<h1>Something is not right</h1>')
  })

  it('shows the not-found page for an unknown address', async () => {
    const res = await new WebClient().get('/no-such-page')
    expect(res.status).toBe(404)
    expect(await res.text()).toContain('Page not found')
  })
})
