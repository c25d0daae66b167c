// A waiting request ends as `expired` when its expires_at passes, by the alarm of its
// Durable Object; an expired request can then be neither updated nor stopped.
import { env, runDurableObjectAlarm } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { type ApiResult, api, expectError } from '../helpers/api'
import { createUserWithToken } from '../helpers/auth'
import { alarmOf, createOk, getRequest, stop, update, validSpec } from '../helpers/requests'
import { dateIn, expiresIn, NEW_YORK } from '../helpers/time'
import { seedVenues } from '../helpers/venues'

beforeAll(seedVenues)

const SOON_MS = 1500

/** A spec for tomorrow evening whose monitoring ends in 1.5 s. */
function soonExpiringSpec(mode: 'alert_only' | 'auto_book') {
  return validSpec({ mode, dates: [dateIn(NEW_YORK, 1)], earliest_time: '18:00', latest_time: '23:00', expires_at: expiresIn(SOON_MS) })
}

/** Waits (real time) until every given expires_at has passed, then runs each object's alarm now. */
async function expireAll(views: ApiResult['body'][]) {
  const latest = Math.max(...views.map((v) => Date.parse(v.expires_at)))
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, latest - Date.now()) + 200))
  // An alarm due by now may already have fired on its own; running a pending one must converge.
  for (const view of views) await runDurableObjectAlarm(env.REQUESTS.getByName(view.id))
}

describe('the expiry alarm', () => {
  it.each(['alert_only', 'auto_book'] as const)('is armed no later than expires_at for a new %s request', async (mode) => {
    const { token } = await createUserWithToken()
    const view = await createOk(token, validSpec({ mode }))
    const alarm = await alarmOf(view.id)
    expect(alarm).not.toBeNull()
    expect(alarm!).toBeLessThanOrEqual(Date.parse(view.expires_at))
  })

  it('moves an active and a waiting request to expired once expires_at has passed', async () => {
    const { token } = await createUserWithToken()
    const active = await createOk(token, soonExpiringSpec('alert_only'))
    const waiting = await createOk(token, soonExpiringSpec('auto_book'))
    expect([active.status, waiting.status]).toEqual(['active', 'needs_approval'])

    await expireAll([active, waiting])

    for (const view of [active, waiting]) {
      const read = await getRequest(token, view.id)
      expect(read.body).toMatchObject({ id: view.id, status: 'expired' })
      expect(read.body.action_url).toBeUndefined()
      // Expired is final: a second alarm run changes nothing.
      await runDurableObjectAlarm(env.REQUESTS.getByName(view.id))
      expect((await getRequest(token, view.id)).body.status).toBe('expired')
    }

    expectError(await update(token, active.id, 1, validSpec({ party_size: 3 })), 409, 'request_closed')
    expectError(await stop(token, active.id), 409, 'request_closed')
    expectError(await update(token, waiting.id, 1, validSpec({ mode: 'auto_book' })), 409, 'request_closed')
    expectError(await stop(token, waiting.id), 409, 'request_closed')

    const listed = await api('/requests', { token })
    expect(listed.body.requests.map((r: { status: string }) => r.status)).toEqual(['expired', 'expired'])
  })

  it('leaves a stopped request stopped when its old alarm runs', async () => {
    const { token } = await createUserWithToken()
    const view = await createOk(token, soonExpiringSpec('alert_only'))
    expect((await stop(token, view.id)).status).toBe(200)
    await expireAll([view])
    expect((await getRequest(token, view.id)).body.status).toBe('stopped')
  })
})
