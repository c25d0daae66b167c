// Security headers on every response, not only on the web app's pages.
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createUserWithToken } from '../helpers/auth'
import { WebClient } from './web-client'

const ORIGIN = 'http://localhost:8787'

function expectPageHeaders(res: Response): void {
  expect(res.headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'")
  expect(res.headers.get('Content-Security-Policy')).toContain("script-src 'self'")
  expect(res.headers.get('X-Frame-Options')).toBe('DENY')
  expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff')
}

describe('pages rendered outside the web app', () => {
  it('the consent endpoint refusing an unknown client sends CSP, X-Frame-Options and nosniff', async () => {
    const web = new WebClient(ORIGIN)
    await web.newUser()
    const res = await web.get('/oauth/authorize?response_type=code&client_id=nobody&redirect_uri=https%3A%2F%2Fx.example%2Fcb')
    expect(res.status).toBe(400)
    expectPageHeaders(res)
  })

  it('the consent endpoint refusing a form without a CSRF token sends them too', async () => {
    const web = new WebClient(ORIGIN)
    await web.newUser()
    const res = await web.post('/oauth/authorize', { decision: 'approve', handle: 'x' })
    expect(res.status).toBe(403)
    expectPageHeaders(res)
  })
})

describe('JSON answers', () => {
  it('/account/platform hands out its CSRF token with no-store', async () => {
    const web = new WebClient()
    await web.newUser()
    const res = await web.get('/account/platform')
    expect(res.status).toBe(200)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff')
  })

  it('/api/v1 sends nosniff and no-store', async () => {
    const { token } = await createUserWithToken()
    const res = await SELF.fetch('http://localhost/api/v1/capabilities', { headers: { Authorization: `Bearer ${token}` } })
    expect(res.status).toBe(200)
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect(res.headers.get('Cache-Control')).toBe('no-store')
  })

  it('/mcp sends nosniff and no-store, on a refusal too', async () => {
    const res = await SELF.fetch(`${ORIGIN}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect(res.headers.get('Cache-Control')).toBe('no-store')
  })
})

describe('HSTS', () => {
  it('is sent over https to a public host', async () => {
    const res = await SELF.fetch('https://tablewatch.example/health')
    expect(res.headers.get('Strict-Transport-Security')).toMatch(/^max-age=\d{8,}; includeSubDomains$/)
  })

  it('is not sent to localhost over plain http (local development)', async () => {
    const res = await SELF.fetch('http://localhost/health')
    expect(res.headers.get('Strict-Transport-Security')).toBeNull()
  })
})
