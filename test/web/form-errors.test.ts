// Bad form input gets a 4xx page in the layout, never a plain-text 500.
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { CSRF_HEADER } from '../../src/auth/csrf'
import { WebClient } from './web-client'

function multipart(fields: Record<string, string | File>): FormData {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  return form
}

async function postMultipart(client: WebClient, path: string, form: FormData, csrf: string): Promise<Response> {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  return SELF.fetch(`${client.origin}${path}`, { method: 'POST', body: form, headers: { Cookie: cookie, [CSRF_HEADER]: csrf } })
}

describe('sign-in with values past the limits', () => {
  it('answers a password over 1,024 characters with the sign-in page and a 422', async () => {
    const client = new WebClient()
    const res = await client.post('/signin', {
      email: 'a@example.com',
      password: 'x'.repeat(1025),
      _csrf: await client.csrfFrom('/signin'),
    })
    expect(res.status).toBe(422)
    const html = await res.text()
    expect(html).toContain('That password is too long.')
    expect(html).toContain('<form')
  })

  it('answers an email over 320 characters with the sign-in page and a 422', async () => {
    const client = new WebClient()
    const email = `${'a'.repeat(320)}@example.com`
    const res = await client.post('/signin', { email, password: 'whatever it is', _csrf: await client.csrfFrom('/signin') })
    expect(res.status).toBe(422)
    expect(await res.text()).toContain('That email is too long.')
  })
})

describe('settings with a file where a URL belongs', () => {
  it('answers a multipart file in webhook_url with the settings page and a 422', async () => {
    const client = new WebClient()
    await client.newUser()
    const csrf = await client.csrfFrom('/settings')
    const form = multipart({ webhook_url: new File(['https://x.example'], 'hook.txt'), _csrf: csrf })
    const res = await postMultipart(client, '/settings/notifications', form, csrf)
    expect(res.status).toBe(422)
    expect(await res.text()).toContain('Enter a full URL starting with https://')
  })
})
