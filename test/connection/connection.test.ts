import { env, SELF } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { createAccessToken } from '../../src/auth/pat'
import { users } from '../../src/db/schema'
import { connectionStatus, connectPlatform, disconnectPlatform } from '../../src/executors/connection'
import { platformSessionOf } from '../../src/executors/platform-session'
import { type Deps, depsOf } from '../../src/runtime/deps'
import { control } from '../watch/world'

async function newUser(deps: Deps) {
  const userId = `usr_conn${crypto.randomUUID().slice(0, 12)}`
  await deps.db.insert(users).values({ id: userId, email: `${userId}@example.test`, createdAt: Date.now() })
  const { token } = await createAccessToken(deps.db, { userId, name: 't', scopes: ['requests:read', 'restaurants:read'] })
  return { userId, token }
}

// The watch project's sandbox world is this file's alone while it runs (files run one at a
// time); each test starts from its seeded state.
beforeEach(async () => {
  await control().reset()
})

const capabilities = async (token: string) =>
  (await SELF.fetch('http://localhost/api/v1/capabilities', { headers: { Authorization: `Bearer ${token}` } })).json()

describe('connecting the platform account', () => {
  it('reports resy_not_connected, then ready once connected with a card, and stores no plaintext token or password', async () => {
    const deps = depsOf(env)
    const { userId, token } = await newUser(deps)
    expect(await capabilities(token)).toEqual({ executor: { ready: false, reason: 'resy_not_connected', execution: 'cloud' } })

    const status = await connectPlatform(deps, userId, { email: 'ada@example.test', password: 'correct horse', acknowledgedRisk: true })
    expect(status).toMatchObject({ connected: true, paymentMethodOnFile: true, needsReconnect: false })
    expect(await capabilities(token)).toEqual({ executor: { ready: true, execution: 'cloud' } })

    const session = await platformSessionOf(deps, userId)
    expect(session?.credentials.authToken.length).toBeGreaterThan(10)
    const row = await env.DB.prepare('select * from platform_connections where user_id = ?').bind(userId).first<Record<string, unknown>>()
    const stored = JSON.stringify(row)
    expect(stored).not.toContain(session?.credentials.authToken)
    expect(stored).not.toContain('correct horse')
  })

  it('reports payment_method_missing for an account without a card', async () => {
    const deps = depsOf(env)
    const { userId, token } = await newUser(deps)
    await connectPlatform(deps, userId, { email: 'nocard@example.test', password: 'pw', acknowledgedRisk: true })
    expect(await capabilities(token)).toEqual({ executor: { ready: false, reason: 'payment_method_missing', execution: 'cloud' } })
  })

  it('refuses to connect without the risk acknowledged, or with credentials the platform rejects', async () => {
    const deps = depsOf(env)
    const { userId } = await newUser(deps)
    await expect(connectPlatform(deps, userId, { email: 'a@example.test', password: 'pw', acknowledgedRisk: false })).rejects.toMatchObject(
      { code: 'risk_not_acknowledged' },
    )
    await expect(connectPlatform(deps, userId, { email: 'a@example.test', password: '', acknowledgedRisk: true })).rejects.toMatchObject({
      code: 'platform_login_failed',
    })
    expect((await connectionStatus(deps, userId)).connected).toBe(false)
  })

  it('reports resy_reauth_required once the platform rejects the stored token', async () => {
    const deps = depsOf(env)
    const { userId, token } = await newUser(deps)
    await connectPlatform(deps, userId, { email: 'grace@example.test', password: 'pw', acknowledgedRisk: true })
    await control().invalidateTokens('grace@example.test')
    // Capabilities re-check an account whose last check is older than the trust window.
    await env.DB.prepare('update platform_connections set checked_at = 0 where user_id = ?').bind(userId).run()
    expect(await capabilities(token)).toEqual({ executor: { ready: false, reason: 'resy_reauth_required', execution: 'cloud' } })
  })

  it('forgets the token on disconnect', async () => {
    const deps = depsOf(env)
    const { userId, token } = await newUser(deps)
    await connectPlatform(deps, userId, { email: 'b@example.test', password: 'pw', acknowledgedRisk: true })
    await disconnectPlatform(deps, userId)
    expect(await platformSessionOf(deps, userId)).toBeNull()
    expect(await env.DB.prepare('select count(*) as n from platform_connections where user_id = ?').bind(userId).first('n')).toBe(0)
    expect(await capabilities(token)).toEqual({ executor: { ready: false, reason: 'resy_not_connected', execution: 'cloud' } })
  })
})

describe('restaurant search', () => {
  it('adds a venue found only on the platform to the catalog, with its time zone and release rule', async () => {
    const deps = depsOf(env)
    const { token } = await newUser(deps)
    const venues = await control().venues()
    const released = venues.find((v) => v.release !== null)
    if (!released) throw new Error('the sandbox seeds venues with release rules')
    expect(await env.DB.prepare('select count(*) as n from venues where venue_id = ?').bind(released.id).first('n')).toBe(0)

    const res = await SELF.fetch(`http://localhost/api/v1/restaurants?q=${encodeURIComponent(released.name)}`, {
      headers: { Authorization: `Bearer ${token}` },
    })
    const body = await res.json<{ restaurants: { venue_id: number; time_zone: string; release_rule: unknown }[] }>()
    const found = body.restaurants.find((r) => r.venue_id === released.id)
    expect(found).toMatchObject({
      time_zone: released.zone,
      release_rule: { days_in_advance: released.release?.days, time_of_day: released.release?.time },
    })
    expect(await env.DB.prepare('select time_zone from venues where venue_id = ?').bind(released.id).first('time_zone')).toBe(released.zone)
  })

  it('merges catalog and platform results without duplicates, at most 8', async () => {
    const deps = depsOf(env)
    const { token } = await newUser(deps)
    const search = async () =>
      (
        await (
          await SELF.fetch('http://localhost/api/v1/restaurants?q=an', { headers: { Authorization: `Bearer ${token}` } })
        ).json<{ restaurants: { venue_id: number }[] }>()
      ).restaurants
    const first = await search()
    const second = await search() // now also from the catalog
    for (const list of [first, second]) {
      expect(list.length).toBeLessThanOrEqual(8)
      expect(new Set(list.map((r) => r.venue_id)).size).toBe(list.length)
    }
  })
})

describe('a stored token that no longer decrypts', () => {
  it('asks the user to reconnect instead of failing', async () => {
    const deps = depsOf(env)
    const { userId, token } = await newUser(deps)
    await connectPlatform(deps, userId, { email: 'rotated@example.test', password: 'pw', acknowledgedRisk: true })
    // As after a key rotation: the sealed token is no longer readable with the current key.
    await env.DB.prepare("update platform_connections set token_iv = 'AAAAAAAAAAAAAAAA', checked_at = 0 where user_id = ?")
      .bind(userId)
      .run()
    const res = await SELF.fetch('http://localhost/api/v1/capabilities', { headers: { Authorization: `Bearer ${token}` } })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ executor: { ready: false, reason: 'resy_reauth_required', execution: 'cloud' } })
  })
})
