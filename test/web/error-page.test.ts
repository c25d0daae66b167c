// The web app's onError: an error a page route throws becomes the HTML error page, never
// Hono's bare "Internal Server Error" text.
import { describe, expect, it } from 'vitest'
import { WebClient } from './web-client'

describe('the HTML error page', () => {
  it('answers a form that fails its schema with a 422 page that says what to do', async () => {
    const client = new WebClient()
    const res = await client.post('/signin', {
      email: `${'a'.repeat(400)}@example.com`,
      password: 'x',
      _csrf: await client.csrfFrom('/signin'),
    })
    expect(res.status).toBe(422)
    expect(res.headers.get('Content-Type')).toMatch(/^text\/html/)
    const html = await res.text()
    expect(html).toContain('This form was not filled in as expected')
    expect(html).toContain('<h1>Something is not right</h1>')
  })

  it('shows the not-found page for an unknown address', async () => {
    const res = await new WebClient().get('/no-such-page')
    expect(res.status).toBe(404)
    expect(await res.text()).toContain('Page not found')
  })
})
