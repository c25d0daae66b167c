// A host that runs in a browser page of a foreign origin is refused readably: the preflight
// passes and the 403 names the origin in Access-Control-Allow-Origin, so the host can show the
// reason instead of "Failed to fetch". The refusal still comes before the token, and an allowed
// origin is answered as before.
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createUserWithToken } from '../helpers/auth'
import { mcpPost, rpc } from './mcp-client'

const FOREIGN = 'https://assistant.example'

describe('/mcp from a foreign browser origin', () => {
  it('lets the preflight through, so the browser sends the request and can read the refusal', async () => {
    const res = await SELF.fetch('http://localhost:8787/mcp', {
      method: 'OPTIONS',
      headers: {
        Host: 'localhost:8787',
        Origin: FOREIGN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type, mcp-protocol-version',
      },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(FOREIGN)
    expect(res.headers.get('Access-Control-Allow-Headers')).toContain('authorization')
  })

  it('refuses with a 403 the page can read, naming the origin and what allows it, even with a valid token', async () => {
    const { token } = await createUserWithToken()
    const res = await mcpPost(rpc('tools/list'), { token, headers: { Origin: FOREIGN } })
    expect(res.status).toBe(403)
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(FOREIGN)
    expect(res.headers.get('Access-Control-Allow-Credentials')).toBeNull()
    const message = String(res.message?.error?.message)
    expect(message).toContain(FOREIGN)
    expect(message).toContain('ALLOWED_ORIGINS')
    expect(res.message?.result).toBeUndefined()
  })

  it('still answers the service’s own origin with its tools', async () => {
    const { token } = await createUserWithToken()
    const res = await mcpPost(rpc('tools/list'), { token, headers: { Origin: 'http://localhost:8787' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('http://localhost:8787')
  })

  it('refuses an Origin that is not one (a sandboxed page’s "null") without naming it', async () => {
    const { token } = await createUserWithToken()
    const res = await mcpPost(rpc('tools/list'), { token, headers: { Origin: 'null' } })
    expect(res.status).toBe(403)
    expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull()
  })
})
