// The user's platform session: the refresh token kept sealed, the auth token renewed ahead of
// expiry and when the platform rejects it (419, or a 500 that says the session is invalid), and
// a reconnect asked for only when the refresh itself is refused.
import { env, SELF } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { createAccessToken } from '../../src/auth/pat'
import { users } from '../../src/db/schema'
import { connectionStatus, connectPlatform, refreshConnection } from '../../src/executors/connection'
import { platformSessionOf, RENEWAL_LEASE_MS, userSession } from '../../src/executors/platform-session'
import { open } from '../../src/lib/secret-box'
import type { Platform } from '../../src/platform/api'
import { type Deps, depsOf } from '../../src/runtime/deps'
import { control } from '../watch/world'

beforeEach(async () => {
  await control().reset()
})

interface Captured {
  authToken: string
  refreshToken: string | null
}

/** A user connected through the service, and the tokens the platform handed out at login. */
async function connected(email = 'ada@example.test') {
  const deps = depsOf(env)
  const userId = `usr_sess${crypto.randomUUID().slice(0, 12)}`
  await deps.db.insert(users).values({ id: userId, email: `${userId}@example.test`, createdAt: Date.now() })
  const { token } = await createAccessToken(deps.db, { userId, name: 't', scopes: ['requests:read'] })
  const captured: Captured[] = []
  const platform: Platform = {
    ...deps.platform,
    login: async (e, p) => {
      const got = await deps.platform.login(e, p)
      if (got.kind === 'ok') captured.push({ authToken: got.value.authToken, refreshToken: got.value.refreshToken })
      return got
    },
  }
  await connectPlatform({ ...deps, platform }, userId, { email, password: 'pw', acknowledgedRisk: true })
  const login = captured[0]
  if (!login) throw new Error('no login')
  return { deps, userId, token, login }
}

const row = (userId: string) =>
  env.DB.prepare('select * from platform_connections where user_id = ?').bind(userId).first<Record<string, string | number | null>>()

const capabilities = async (token: string) =>
  (await SELF.fetch('http://localhost/api/v1/capabilities', { headers: { Authorization: `Bearer ${token}` } })).json()

/** Capabilities check the account again once the last check is older than the trust window. */
const forgetLastCheck = (userId: string) =>
  env.DB.prepare('update platform_connections set checked_at = 0 where user_id = ?').bind(userId).run()

describe('the refresh token', () => {
  it('is kept from login, sealed like the auth token, never in plain text', async () => {
    const { deps, userId, login } = await connected()
    expect(login.refreshToken).toBeTruthy()
    const stored = await row(userId)
    expect(JSON.stringify(stored)).not.toContain(login.refreshToken)
    expect(JSON.stringify(stored)).not.toContain(login.authToken)
    const sealed = { ciphertext: String(stored?.refresh_ciphertext), iv: String(stored?.refresh_iv) }
    expect(await open(deps.env.PLATFORM_TOKEN_KEY, sealed, `${userId}:refresh`)).toBe(login.refreshToken)
    // Bound to what it is: it does not open as the user's auth token.
    await expect(open(deps.env.PLATFORM_TOKEN_KEY, sealed, userId)).rejects.toThrow()
    expect(stored?.token_expires_at).toBeGreaterThan(Date.now() + 44 * 86_400_000)
  })
})

describe('renewing the auth token', () => {
  it('renews it before it expires, with one refresh call', async () => {
    const { deps, userId, login } = await connected()
    // A quarter of its life (at most a day) is left: due.
    await env.DB.prepare('update platform_connections set token_expires_at = ?, token_obtained_at = ? where user_id = ?')
      .bind(Date.now() + 60_000, Date.now() - 3_600_000, userId)
      .run()
    const session = await platformSessionOf({ ...deps, now: Date.now() }, userId)
    expect(session?.credentials.authToken).not.toBe(login.authToken)
    expect((await control().calls()).refresh).toBe(1)
    expect((await deps.platform.checkAccount(session?.credentials ?? { authToken: '', cdnCookies: {} })).kind).toBe('ok')
    // Stored: the next session uses the renewed token without another refresh.
    expect((await platformSessionOf({ ...deps, now: Date.now() }, userId))?.credentials.authToken).toBe(session?.credentials.authToken)
    expect((await control().calls()).refresh).toBe(1)
  })

  it('renews an expired token on the 419 and retries the call, so the user is not asked to reconnect', async () => {
    await control().setTokenLifetimes({ authSeconds: 1, refreshSeconds: 3600 })
    const { userId, token } = await connected()
    // Nothing tells the service the token expired: its `exp` is stored as unknown here.
    await env.DB.prepare('update platform_connections set token_expires_at = null where user_id = ?').bind(userId).run()
    await scheduler.wait(1100)
    await forgetLastCheck(userId)
    expect(await capabilities(token)).toEqual({ executor: { ready: true, execution: 'cloud' } })
    expect((await control().calls()).refresh).toBe(1)
    expect(await connectionStatus(depsOf(env), userId)).toMatchObject({ connected: true, needsReconnect: false })
  })

  it('treats a 500 whose body says the session is invalid like an expired session', async () => {
    const { userId, token } = await connected()
    await control().injectFault({ endpoint: 'user', kind: 'session_500' })
    await forgetLastCheck(userId)
    expect(await capabilities(token)).toEqual({ executor: { ready: true, execution: 'cloud' } })
    expect((await control().calls()).refresh).toBe(1)
  })

  it('never asks to reconnect when the renewed token is rejected too, since the refresh token works', async () => {
    const { deps, userId } = await connected()
    // The read is rejected, the token renewed, and the read made again is rejected as well
    // (in the simulation: every token expired again between the renewal and the second read).
    await control().injectFault({ endpoint: 'user', kind: 'session_500', count: 2 })
    const session = await userSession(deps, userId)
    expect(await session?.read((t) => deps.platform.checkAccount(t))).toMatchObject({ kind: 'unavailable' })
    await forgetLastCheck(userId)
    await control().injectFault({ endpoint: 'user', kind: 'session_500', count: 2 })
    await refreshConnection({ ...deps, now: Date.now() }, userId)
    expect(await connectionStatus(deps, userId)).toMatchObject({ needsReconnect: false })
    expect((await control().calls()).refresh).toBe(2)
  })

  it('asks the user to reconnect only when the refresh is refused too', async () => {
    const { userId, token } = await connected('grace@example.test')
    await control().invalidateTokens('grace@example.test') // the auth and the refresh token
    await forgetLastCheck(userId)
    expect(await capabilities(token)).toEqual({ executor: { ready: false, reason: 'resy_reauth_required', execution: 'cloud' } })
    expect((await control().calls()).refresh).toBe(1)
  })

  it('keeps the connection when the refresh merely fails, and tries again later', async () => {
    const { deps, userId } = await connected()
    await control().injectFault({ endpoint: 'user', kind: '419' })
    await control().injectFault({ endpoint: 'refresh', kind: '503' })
    const session = await userSession(deps, userId)
    expect(await session?.read((t) => deps.platform.checkAccount(t))).toMatchObject({ kind: 'unavailable' })
    expect(await connectionStatus(deps, userId)).toMatchObject({ needsReconnect: false })
  })

  it('renews once when two calls find the token rejected at the same time (a refresh token works once)', async () => {
    const { deps, userId, login } = await connected()
    const [a, b] = await Promise.all([userSession(deps, userId), userSession(deps, userId)])
    if (!a || !b) throw new Error('no session')
    const [ra, rb] = await Promise.all([a.renewAfterRejection(), b.renewAfterRejection()])
    expect(ra.kind).toBe('renewed')
    expect(rb.kind).toBe('renewed')
    expect(a.credentials().authToken).not.toBe(login.authToken)
    expect(b.credentials().authToken).toBe(a.credentials().authToken)
    expect((await deps.platform.checkAccount(a.credentials())).kind).toBe('ok')
    expect((await control().calls()).refresh).toBe(1)
    expect(await connectionStatus(deps, userId)).toMatchObject({ needsReconnect: false })
  })
})

describe('the renewal race (one refresh per user at a time)', () => {
  /** The platform answers the first refresh only `ms` after it spent the token (a slow network, a loaded D1). */
  const slowFirstRefresh = (deps: Deps, ms: number): Deps => {
    let first = true
    const platform: Platform = {
      ...deps.platform,
      refresh: async (credentials) => {
        const got = await deps.platform.refresh(credentials)
        if (first) {
          first = false
          await scheduler.wait(ms)
        }
        return got
      },
    }
    return { ...deps, platform }
  }

  it('two request objects whose token expired renew with one refresh call, and nobody is asked to reconnect', async () => {
    const { deps, userId } = await connected()
    await control().expireAuthTokens()
    await forgetLastCheck(userId)
    // The winner's tokens are stored well after the loser would have concluded "refused".
    const slow = slowFirstRefresh({ ...deps, now: Date.now() }, 1500)
    await Promise.all([refreshConnection(slow, userId), refreshConnection(slow, userId)])
    expect(await connectionStatus(deps, userId)).toMatchObject({ connected: true, needsReconnect: false })
    expect((await control().calls()).refresh).toBe(1)
    const session = await userSession({ ...deps, now: Date.now() }, userId)
    expect((await deps.platform.checkAccount(session?.credentials() ?? { authToken: '', cdnCookies: {} })).kind).toBe('ok')
  })

  it('a renewer that died holding the lease holds the others back only until the lease expires', async () => {
    const { deps, userId } = await connected()
    await control().expireAuthTokens()
    await env.DB.prepare("update platform_connections set renewal_holder = 'died', renewal_lease_until = ? where user_id = ?")
      .bind(Date.now() + 300, userId)
      .run()
    const session = await userSession(deps, userId)
    expect(await session?.read((t) => deps.platform.checkAccount(t))).toMatchObject({ kind: 'ok' })
    expect((await control().calls()).refresh).toBe(1)
    expect(await row(userId)).toMatchObject({ renewal_holder: null, renewal_lease_until: null })
  })

  it('a call that waited for a renewal which failed reports the platform unavailable, never a reconnect', async () => {
    const { deps, userId } = await connected()
    await control().expireAuthTokens()
    await env.DB.prepare("update platform_connections set renewal_holder = 'other', renewal_lease_until = ? where user_id = ?")
      .bind(Date.now() + RENEWAL_LEASE_MS, userId)
      .run()
    const session = await userSession(deps, userId)
    const read = session?.read((t) => deps.platform.checkAccount(t))
    // The other call's refresh failed: it gives the lease up without new tokens.
    await scheduler.wait(300)
    await env.DB.prepare('update platform_connections set renewal_holder = null, renewal_lease_until = null where user_id = ?')
      .bind(userId)
      .run()
    expect(await read).toMatchObject({ kind: 'unavailable' })
    expect((await control().calls()).refresh ?? 0).toBe(0)
    expect(await connectionStatus(deps, userId)).toMatchObject({ needsReconnect: false })
  })
})
