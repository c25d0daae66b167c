import { env, runInDurableObject, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { revokeAccessToken } from '../../src/access/revoke'
import { dayWhen } from '../../src/alerts/alert-time'
import { connectPlatform, disconnectPlatform } from '../../src/executors/connection'
import { sha256Hex } from '../../src/lib/random'
import { depsOf, requestObject } from '../../src/runtime/deps'
import { alarmOf } from '../helpers/requests'
import {
  control,
  createApproved,
  createRequest,
  flushAlerts,
  notificationsOf,
  outboxOf,
  poll,
  runAlarm,
  runPoll,
  setUp,
  VENUE,
  view,
} from './world'

async function tokenIdOf(token: string): Promise<string> {
  const row = await env.DB.prepare('select id from access_tokens where token_hash = ?')
    .bind(await sha256Hex(token))
    .first<{ id: string }>()
  if (!row) throw new Error('no such token')
  return row.id
}

describe('watching over time', () => {
  it('expires an active request at expires_at, and one that waits for approval too', async () => {
    const { token, userId, spec, day } = await setUp()
    // The user switched "expired or revoked" off for email and webhook: the inbox still says it.
    await env.DB.prepare(`update users set notices_off = '["ended"]' where id = ?`).bind(userId).run()
    const active = await createRequest(token, spec())
    const waiting = await createRequest(
      token,
      spec({ mode: 'auto_book', earliest_time: '12:00', latest_time: '13:00', expires_at: `${day}T11:00:00-05:00` }),
    )
    for (const id of [active.id, waiting.id]) {
      await runInDurableObject(requestObject(env, id), async (_i, state) => {
        const s = await state.storage.get<{ expiresAt: number }>('state')
        await state.storage.put('state', { ...s, expiresAt: Date.now() - 1 })
      })
      await runAlarm(id)
    }
    expect((await view(token, active.id)).status).toBe('expired')
    expect((await view(token, waiting.id)).status).toBe('expired')
    const ended = (await notificationsOf(userId)).filter((n) => n.kind === 'request_ended')
    // Each names the dinner (party, restaurant, date), not "a request".
    expect(ended.map((n) => n.title)).toEqual(Array(2).fill(`Expired: A table for 2 at Pomelo Garden · ${dayWhen(day)}`))
    expect(ended.map((n) => n.body.split('\n\n')[1]).sort()).toEqual([
      'Expired before it was approved; nothing was watched. Ask your assistant for a new request if you still want a table.',
      'Expired; nothing was booked. Ask your assistant for a new request if you still want a table.',
    ])
    // Emailed: the approval request (switched on); not emailed: the expiries (switched off).
    expect((await outboxOf(userId)).map((e) => e.subject)).toEqual([`Approve: A table for 2 at Pomelo Garden · ${dayWhen(day)}`])
  })

  it('revokes every open request of a token at once when the token is revoked', async () => {
    const { token, userId, spec, deps, day } = await setUp()
    const active = await createRequest(token, spec())
    const approved = await createApproved(
      token,
      userId,
      spec({ earliest_time: '12:00', latest_time: '13:00', expires_at: `${day}T11:00:00-05:00` }),
    )
    const waiting = await createRequest(
      token,
      spec({ mode: 'auto_book', earliest_time: '14:00', latest_time: '15:00', expires_at: `${day}T11:00:00-05:00` }),
    )
    await revokeAccessToken(deps, userId, await tokenIdOf(token))
    for (const id of [active.id, approved.id, waiting.id]) {
      const state = await requestObject(env, id).read()
      expect(state?.status).toBe('revoked')
      expect(await alarmOf(id)).toBeNull()
    }
  })

  it('revokes the open requests of a user who disconnects the platform, and leaves closed ones alone', async () => {
    const { token, userId, spec, day } = await setUp()
    const open = await createRequest(token, spec())
    const stopped = await createRequest(token, spec({ earliest_time: '12:00', latest_time: '13:00', expires_at: `${day}T11:00:00-05:00` }))
    await requestObject(env, stopped.id).stop(Date.now())
    await disconnectPlatform(depsOf(env), userId)
    expect((await view(token, open.id)).status).toBe('revoked')
    expect((await view(token, stopped.id)).status).toBe('stopped')
  })

  it('alerts the user once and waits for a reconnect to book, watching on, when the platform rejects the stored token', async () => {
    const { token, userId, day, spec, platformEmail } = await setUp()
    await control().addSlot({ venueId: VENUE, day, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    await control().invalidateTokens(platformEmail)
    const request = await createApproved(token, userId, spec())
    await poll(day)
    await poll(day)
    await runAlarm(request.id)
    await flushAlerts(request.id)

    const kinds = (await notificationsOf(userId)).map((n) => n.kind).sort()
    expect(kinds).toEqual(['approval_needed', 'booking_skipped', 'reconnect_needed'])
    expect((await view(token, request.id)).status).toBe('active')
    const capabilities = await SELF.fetch('http://localhost/api/v1/capabilities', { headers: { Authorization: `Bearer ${token}` } })
    expect(await capabilities.json()).toEqual({ executor: { ready: false, reason: 'resy_reauth_required', execution: 'cloud' } })
    expect((await control().calls()).book ?? 0).toBe(0)
    // The request that hit the rejected token says at once that booking waits for the user.
    expect((await view(token, request.id)).status_reason).toMatch(/booking waits: .*Reconnect it in Settings/)
  })

  it('does not check availability for a user who has not connected the platform, and starts once connected', async () => {
    const { token, userId, spec, day } = await setUp({ connect: false })
    const request = await createRequest(token, spec())
    await runPoll(day)
    await runAlarm(request.id)
    const seen = await view(token, request.id)
    expect(seen.status).toBe('active')
    expect(seen.status_reason).toMatch(/connect a reservation platform account/)
    expect((await control().calls()).find ?? 0).toBe(0)

    // Connecting wakes the request at once: no need to wait for its next look at the connection.
    await connectPlatform(depsOf(env), userId, { email: `diner-${userId}@example.test`, password: 'secret', acknowledgedRisk: true })
    await runPoll(day)
    expect((await control().calls()).find ?? 0).toBe(1)
    expect((await view(token, request.id)).status_reason).toBeNull()
  })
})
