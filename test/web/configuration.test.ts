// Production refuses to serve without PUBLIC_BASE_URL or its HMAC secrets,
// rather than building links and OAuth audiences from a caller's Host header.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it, vi } from 'vitest'
import worker from '../../src/index'

/** `PUBLIC_BASE_URL: undefined` leaves it unset, as a deployment that forgot it would. */
async function fetchWith(overrides: Partial<Cloudflare.Env>, url = 'https://tablewatch.example/'): Promise<Response> {
  const ctx = createExecutionContext()
  const res = await worker.fetch(new Request(url, { headers: { Host: new URL(url).host } }), { ...env, ...overrides }, ctx)
  await waitOnExecutionContext(ctx)
  return res
}

describe('configuration', () => {
  it('production without PUBLIC_BASE_URL serves nothing (503) and says why in the log only', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const res = await fetchWith({ PUBLIC_BASE_URL: undefined })
    expect(res.status).toBe(503)
    const text = await res.text()
    expect(text).not.toContain('PUBLIC_BASE_URL')
    expect(errors.mock.calls.flat().join(' ')).toContain('PUBLIC_BASE_URL')
    errors.mockRestore()
  })

  it('production without PUBLIC_BASE_URL never hands out links on the Host it was called with', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const res = await fetchWith({ PUBLIC_BASE_URL: undefined }, 'https://attacker.example/developers/skill.md')
    expect(await res.text()).not.toContain('attacker.example')
    vi.restoreAllMocks()
  })

  it.each(['PASSWORD_PEPPER', 'CSRF_SECRET'] as const)('production without %s serves nothing (503)', async (name) => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    expect((await fetchWith({ [name]: '' })).status).toBe(503)
    vi.restoreAllMocks()
  })

  it('local development may run without PUBLIC_BASE_URL', async () => {
    const res = await fetchWith({ PUBLIC_BASE_URL: undefined, LOCAL_DEVELOPMENT: 'on' }, 'http://localhost:8787/health')
    expect(res.status).toBe(200)
  })

  it('a configured production serves', async () => {
    expect((await fetchWith({})).status).toBe(200)
  })
})
