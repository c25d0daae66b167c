// The platform refusing the service's own network (the CDN's plain-text 500), remembered per
// user by its answers: a sign-in refused from the cloud is said on Settings with the way round it
// (the paired device); details refused from the cloud make booking from the cloud
// `platform_refuses_cloud` in capabilities while watching stays ready, and the user's choice of
// where booking happens is never changed by the service. An answer from the cloud forgets it.
import { env, SELF } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { createAccessToken } from '../../src/auth/pat'
import { accountStep } from '../../src/executors/account-step'
import { connectPlatform } from '../../src/executors/connection'
import { depsOf } from '../../src/runtime/deps'
import { dateIn } from '../helpers/time'
import { control, VENUE, ZONE } from '../watch/world'
import { WebClient } from '../web/web-client'

beforeEach(async () => {
  await control().reset()
})

async function signedUp() {
  const client = new WebClient()
  const email = await client.newUser()
  const userId = String(await env.DB.prepare('select id from users where email = ?').bind(email).first('id'))
  const { token } = await createAccessToken(depsOf(env).db, { userId, name: 't', scopes: ['requests:read', 'restaurants:read'] })
  return { client, userId, token }
}

const capabilities = async (token: string) =>
  (await SELF.fetch('http://localhost/api/v1/capabilities', { headers: { Authorization: `Bearer ${token}` } })).json()

const refusalsOf = async (userId: string) =>
  (
    await env.DB.prepare('select call from cloud_refusals where user_id = ? order by call').bind(userId).all<{ call: string }>()
  ).results.map((r) => r.call)

/** The details and reservations of a table, read from the cloud as a booking reads them. */
async function readForOffer(userId: string) {
  const account = await accountStep().accountOf(depsOf(env), userId)
  const day = dateIn(ZONE, 3)
  return account.readForOffer({
    query: { configId: `cfg-${VENUE}-${day}`, day, partySize: 2 },
    workId: crypto.randomUUID(),
    limiterWait: async () => 0,
  })
}

describe('what the platform refuses from the cloud', () => {
  it('remembers a sign-in the CDN refused, says so on Settings with the way round it, and forgets it once one works', async () => {
    const { client, userId } = await signedUp()
    await control().block({ forMs: 60_000, style: 'plain_500' })
    const refused = await client.post('/settings/platform/connect', {
      platform_email: 'refused@example.test',
      platform_password: 'pw',
      accept_risk: 'on',
      _csrf: await client.csrfFrom('/settings'),
    })
    expect(refused.status).toBe(422)
    const page = await refused.text()
    expect(page).toContain('The platform does not let our servers sign you in.')
    expect(page).toContain('Connect from your own computer')
    expect(page).not.toContain('not answering right now')
    expect(await refusalsOf(userId)).toEqual(['sign_in'])
    expect(await (await client.get('/settings')).text()).toContain('signing in (last refused')

    await control().block({ forMs: 0 })
    await connectPlatform(depsOf(env), userId, { email: 'refused@example.test', password: 'pw', acknowledgedRisk: true })
    expect(await refusalsOf(userId)).toEqual([])
  })

  it('answers platform_refuses_cloud for booking once details were refused from the cloud, keeps watching ready, and never changes where booking happens', async () => {
    const { client, userId, token } = await signedUp()
    await connectPlatform(depsOf(env), userId, { email: 'dc@example.test', password: 'pw', acknowledgedRisk: true })
    expect(await capabilities(token)).toEqual({ executor: { ready: true, execution: 'cloud' } })

    await control().block({ forMs: 60_000, style: 'plain_500' })
    const read = await readForOffer(userId)
    expect(read).toMatchObject({ kind: 'read', details: { kind: 'blocked' } })
    expect(await refusalsOf(userId)).toEqual(['details'])
    expect(await capabilities(token)).toEqual({ executor: { ready: false, reason: 'platform_refuses_cloud', execution: 'cloud' } })
    const settings = await (await client.get('/settings')).text()
    expect(settings).toContain('Booking from our servers is refused for your account')
    expect(settings).toContain('Book from my paired device')
    expect(await env.DB.prepare('select execution from users where id = ?').bind(userId).first('execution')).toBe('cloud')

    await control().block({ forMs: 0 })
    expect((await readForOffer(userId)).kind).toBe('read')
    expect(await refusalsOf(userId)).toEqual([])
    expect(await capabilities(token)).toEqual({ executor: { ready: true, execution: 'cloud' } })
  })
})
