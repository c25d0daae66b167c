// Sessions that end, against the sandbox platform: a code sign-in hands out
// no refresh token, so the session ends at its token's exp. The hourly cron warns the diner 7 days
// and 1 day before, once each; after the end, watching goes on and a table an approved auto_book
// request finds is told "reconnect to book"; reconnecting books it. Nothing is lost.
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { saveAlertPreferences } from '../../src/alerts/alert-preferences'
import { findConnection } from '../../src/db/connections'
import { connectPlatform } from '../../src/executors/connection'
import worker from '../../src/index'
import { depsOf } from '../../src/runtime/deps'
import { WebClient } from '../web/web-client'
import { type CodeAccount, codeOnlyAccount, connectByCode } from './code-account'
import { control, createApproved, flushAlerts, ledgerOf, notificationsOf, outboxOf, poll, runAlarm, setUp, VENUE, view } from './world'

const HOUR = 3_600_000
const DAY = 24 * HOUR

/** The hourly cron, as the runtime delivers it at `at` (twice at once when `twice`: a duplicate delivery). */
async function cronAt(at: number, twice = false): Promise<void> {
  const run = async () => {
    const ctx = createExecutionContext()
    worker.scheduled(createScheduledController({ scheduledTime: at, cron: '17 * * * *' }), env, ctx)
    await waitOnExecutionContext(ctx)
  }
  await Promise.all(twice ? [run(), run()] : [run()])
}

const warningsOf = async (userId: string) => (await notificationsOf(userId)).filter((n) => n.kind === 'session_ending')

async function codeUser() {
  const world = await setUp({ connect: false })
  const account: CodeAccount = await codeOnlyAccount(world.userId)
  await connectByCode(world.deps, world.userId, account)
  const row = await findConnection(world.deps.db, world.userId)
  if (!row?.tokenExpiresAt) throw new Error('the code sign-in left no session end')
  // The platform handed out no refresh token: the session ends at the token's exp.
  expect(row.refreshCiphertext).toBeNull()
  return { ...world, account, endsAt: row.tokenExpiresAt }
}

describe('a sign-in without a refresh token', () => {
  it('is warned 7 days and 1 day before it ends, once each, by inbox and email, with the reconnect link', async () => {
    const { userId, endsAt } = await codeUser()

    await cronAt(endsAt - 8 * DAY)
    expect(await warningsOf(userId)).toEqual([])

    // Due: the runtime delivers the hour's run twice at once, and the next hour runs too.
    await cronAt(endsAt - 7 * DAY + HOUR, true)
    await cronAt(endsAt - 7 * DAY + 2 * HOUR)
    const first = await warningsOf(userId)
    expect(first).toEqual([
      {
        kind: 'session_ending',
        title: 'Your reservation platform sign-in ends in 6 days',
        body: expect.stringMatching(/keeps watching your requests .* cannot book them until you sign in again/),
        link: 'http://localhost:8787/settings#platform',
      },
    ])

    await cronAt(endsAt - DAY + HOUR, true)
    await cronAt(endsAt - 2 * HOUR)
    const both = await warningsOf(userId)
    expect(both.map((n) => n.title)).toEqual([
      'Your reservation platform sign-in ends in 6 days',
      'Your reservation platform sign-in ends in 23 hours',
    ])
    // Once each by email too (the health switch is on by default).
    expect((await outboxOf(userId)).map((m) => m.subject)).toEqual(both.map((n) => n.title))

    // After the end nothing more is sent: the request pages and alerts say what to do from here.
    await cronAt(endsAt + HOUR)
    expect(await warningsOf(userId)).toHaveLength(2)
  })

  it('is warned in the inbox only when the diner turned the health notices off', async () => {
    const { deps, userId, endsAt } = await codeUser()
    const saved = await saveAlertPreferences(deps, userId, {
      alertGapMinutes: 10,
      dailyAlertCap: 20,
      noticesOff: ['health'],
      webhookFormat: 'json',
    })
    expect(saved.ok).toBe(true)
    await cronAt(endsAt - DAY + HOUR)
    expect(await warningsOf(userId)).toHaveLength(1)
    expect(await outboxOf(userId)).toEqual([])
  })

  it('is the only kind warned at its token’s end: a sign-in that renews itself is warned only before its refresh token’s stated end', async () => {
    const { deps, userId } = await setUp({ connect: false })
    await connectPlatform(deps, userId, { email: `diner-${userId}@example.test`, password: 'secret', acknowledgedRisk: true })
    const row = await findConnection(deps.db, userId)
    expect(row?.refreshCiphertext).not.toBeNull()
    const tokenEnds = row?.tokenExpiresAt ?? 0
    const refreshEnds = row?.refreshExpiresAt ?? 0
    expect(refreshEnds).toBeGreaterThan(tokenEnds)
    await cronAt(tokenEnds - DAY + HOUR)
    await cronAt(tokenEnds - 7 * DAY + HOUR)
    expect(await warningsOf(userId)).toEqual([])
    // Not renewed for months (nothing called with it), it would end with its refresh token.
    await cronAt(refreshEnds - DAY + HOUR)
    expect((await warningsOf(userId)).map((n) => n.title)).toEqual(['Your reservation platform sign-in ends in 23 hours'])
  })
})

describe("the warnings' link", () => {
  it("opens Settings' platform section (#platform) with the reconnect form open, within a week of the end", async () => {
    await control().reset()
    const owner = new WebClient()
    const email = await owner.newUser()
    const row = await env.DB.prepare('select id from users where email = ?').bind(email).first<{ id: string }>()
    if (!row) throw new Error('no user')
    const account = await codeOnlyAccount(row.id)
    await control().setTokenLifetimes({ authSeconds: 3 * 86_400, refreshSeconds: 86_400 })
    await connectByCode(depsOf(env), row.id, account)

    const page = await (await owner.get('/settings')).text()
    expect(page).toMatch(/<section class="card" id="platform"/)
    expect(page).toMatch(/<details class="reconnect" open/)
    expect(page).toMatch(/Working until .*: connect again below before then to keep booking/)
  })
})

describe('after a sign-in without a refresh token ends', () => {
  it('watches on, tells a table for an approved auto_book "reconnect to book", and books it once the diner reconnects', async () => {
    // Tokens live 2 s: the session ends while the request watches.
    const world = await setUp({ connect: false })
    const { deps, userId, token, day, spec } = world
    const account = await codeOnlyAccount(userId)
    await control().setTokenLifetimes({ authSeconds: 2, refreshSeconds: 86_400 })
    await connectByCode(deps, userId, account)
    const request = await createApproved(token, userId, spec())
    await scheduler.wait(2_500)

    await control().addSlot({ venueId: VENUE, day, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    await poll(day)
    await flushAlerts(request.id)

    const lapsed = await view(token, request.id)
    expect(lapsed.status).toBe('active')
    expect(lapsed.status_reason).toMatch(/booking waits: .*Reconnect it in Settings and booking resumes/)
    const told = (await notificationsOf(userId)).find((n) => n.kind === 'booking_skipped')
    expect(told?.body).toMatch(/11:15 PM [A-Z]{2} · Dining Room \(not booked automatically: reconnect to book/)
    expect(told?.body).toContain('http://localhost:8787/settings#platform')
    expect((await notificationsOf(userId)).map((n) => n.kind)).toContain('reconnect_needed')
    // Nothing was sent with the ended session: no booking details, no book call.
    const calls = await control().calls()
    expect(calls.details ?? 0).toBe(0)
    expect(calls.book ?? 0).toBe(0)

    // Watching goes on: the next table is found by the next poll and told the same way, still without a call.
    const findsBefore = calls.find ?? 0
    await control().addSlot({ venueId: VENUE, day, time: '23:30', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    await poll(day)
    expect((await control().calls()).find ?? 0).toBeGreaterThan(findsBefore)
    expect((await view(token, request.id)).trace.map((t) => t.message).join('\n')).toMatch(
      /Not booked: Pomelo Garden, .*11:30 PM.*: reconnect to book/,
    )
    expect((await control().calls()).details ?? 0).toBe(0)

    // The diner reconnects (a fresh code sign-in): booking resumes, and the first table told is booked.
    await control().setTokenLifetimes({ authSeconds: 45 * 86_400, refreshSeconds: 90 * 86_400 })
    await connectByCode(deps, userId, account)
    await poll(day)
    await runAlarm(request.id)
    const booked = await view(token, request.id)
    expect(booked.status).toBe('confirmed')
    expect(booked.reservations).toEqual([expect.objectContaining({ verified: true, time: '23:15' })])
    expect(await ledgerOf(account.email)).toEqual([expect.objectContaining({ time: '23:15' })])
  })
})
