// Every link the service mails or publishes is built from its configured base
// URL (PUBLIC_BASE_URL, http://localhost:8787 in this pool), never from the request's Host
// header. Before, a reset asked for with `Host: evil.example` mailed a working token at
// http://evil.example/password-reset/set?t=…, and /api/v1/openapi.json echoed the Host.
import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { confirmationLink, WebClient } from './web-client'

const BASE = 'http://localhost:8787'
const EVIL = 'http://evil.example'

async function newestMailBody(email: string, subject: string, since: number): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const row = await env.DB.prepare(
      'select body from outbox where to_address = ? and subject = ? and created_at >= ? order by id desc limit 1',
    )
      .bind(email, subject, since)
      .first<{ body: string }>()
    if (row) return row.body
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`no "${subject}" mail to ${email}`)
}

const links = (body: string) => [...body.matchAll(/https?:\/\/\S+/g)].map((m) => m[0])

describe('links in mails and documents', () => {
  it('a reset asked for with Host: evil.example mails its link at the configured address', async () => {
    const email = await new WebClient().newUser()
    const since = Date.now()
    const visitor = new WebClient(EVIL)
    const res = await visitor.post('/password-reset', { email, _csrf: await visitor.csrfFrom('/password-reset') })
    expect(res.status).toBe(303)
    const body = await newestMailBody(email, 'Reset your Tablewatch password', since)
    expect(links(body)).toEqual([expect.stringMatching(/^http:\/\/localhost:8787\/password-reset\/set\?t=/)])
    expect(body).not.toContain('evil.example')
  })

  it('a sign-up asked for with Host: evil.example mails its confirmation link at the configured address', async () => {
    const email = `user-${crypto.randomUUID()}@example.com`
    const since = Date.now()
    const visitor = new WebClient(EVIL)
    const res = await visitor.post('/signup', { email, password: 'correct horse battery', _csrf: await visitor.csrfFrom('/signup') })
    expect(res.status).toBe(303)
    expect(await confirmationLink(email, since)).toMatch(/^http:\/\/localhost:8787\/signup\/confirm\?t=/)
  })

  it('the OpenAPI document names the configured address as its server, whatever the Host', async () => {
    for (const origin of [EVIL, BASE]) {
      const doc = (await (await SELF.fetch(`${origin}/api/v1/openapi.json`)).json()) as { servers: { url: string }[] }
      expect(doc.servers).toEqual([{ url: BASE }])
    }
  })
})
