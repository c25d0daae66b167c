// The CDN's cookies of a connection: kept from the sign-in, sealed with the tokens, sent back on the
// session's calls as a browser does, and kept across a renewal (docs/platform.md, "The CDN").
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { users } from '../../src/db/schema'
import { connectPlatform } from '../../src/executors/connection'
import { userSession } from '../../src/executors/platform-session'
import { open } from '../../src/lib/secret-box'
import { depsOf } from '../../src/runtime/deps'
import { control } from '../watch/world'

beforeEach(async () => {
  await control().reset()
  // The site wants its cookies back on the account's calls (Imperva's cookie challenge).
  await control().setSignInSettings({ cdnCookiesRequired: true })
})

async function connected() {
  const deps = depsOf(env)
  const userId = `usr_cdn${crypto.randomUUID().slice(0, 12)}`
  await deps.db.insert(users).values({ id: userId, email: `${userId}@example.test`, createdAt: Date.now() })
  await connectPlatform(deps, userId, { email: `${userId}@example.test`, password: 'pw', acknowledgedRisk: true })
  return { deps, userId }
}

const row = (userId: string) =>
  env.DB.prepare('select * from platform_connections where user_id = ?').bind(userId).first<Record<string, string | number | null>>()

describe('a connection’s CDN cookies', () => {
  it('are kept from the sign-in, sealed and bound to the user, never in plain text', async () => {
    const { deps, userId } = await connected()
    const stored = await row(userId)
    const sealed = { ciphertext: String(stored?.cdn_cookies_ciphertext), iv: String(stored?.cdn_cookies_iv) }
    const jar = JSON.parse(await open(deps.env.PLATFORM_TOKEN_KEY, sealed, `${userId}:cdn`)) as Record<string, string>
    expect(Object.keys(jar)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^visid_incap_\d+$/), expect.stringMatching(/^incap_ses_/)]),
    )
    for (const value of Object.values(jar)) expect(JSON.stringify(stored)).not.toContain(value)
    await expect(open(deps.env.PLATFORM_TOKEN_KEY, sealed, userId)).rejects.toThrow()
    expect(stored).toMatchObject({ refresh_via: 'cookie', refresh_expires_at: expect.any(Number) })
  })

  it('go with the session’s calls, so a site that challenges clients without them answers the account', async () => {
    const { deps, userId } = await connected()
    const session = await userSession(deps, userId)
    expect(await session?.read((credentials) => deps.platform.checkAccount(credentials))).toMatchObject({ kind: 'ok' })
    expect(await session?.read((credentials) => deps.platform.listReservations(credentials))).toMatchObject({ kind: 'ok' })
  })

  it('stay with the session across a renewal, and a cookie the CDN sets again is stored', async () => {
    const { deps, userId } = await connected()
    await control().expireAuthTokens()
    const session = await userSession({ ...deps, now: Date.now() }, userId)
    // The token is rejected, renewed with the refresh token (and the cookies), and the call made again.
    expect(await session?.read((credentials) => deps.platform.checkAccount(credentials))).toMatchObject({ kind: 'ok' })
    expect((await control().calls()).refresh).toBe(1)
    // A later session of the user reads the renewed token and the same cookies from storage.
    const later = await userSession({ ...deps, now: Date.now() }, userId)
    const jar = later?.credentials().cdnCookies ?? {}
    const name = Object.keys(jar).find((n) => n.startsWith('incap_ses_')) ?? ''
    // A session cookie the CDN no longer has for us: it sets a new one (without the challenge here).
    await control().setSignInSettings({ cdnCookiesRequired: false })
    delete jar[name]
    expect(await later?.read((credentials) => deps.platform.checkAccount(credentials))).toMatchObject({ kind: 'ok' })
    const again = await userSession({ ...deps, now: Date.now() }, userId)
    expect(again?.credentials().cdnCookies[name]).toEqual(expect.any(String))
  })
})
