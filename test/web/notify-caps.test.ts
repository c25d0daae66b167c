// What reaches email and the webhook: a kind switched off in Settings, and table
// alerts beyond the user's daily cap, stay in the inbox only; other notices never count.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { dbOf } from '../../src/db/client'
import { users } from '../../src/db/schema'
import { type Alert, notifyUser, notifyUserOfAll } from '../../src/notifications/notify'
import { depsOf } from '../../src/runtime/deps'

async function newUser(prefs: Partial<typeof users.$inferInsert> = {}) {
  const id = `usr_caps${crypto.randomUUID().slice(0, 8)}`
  await dbOf(env.DB)
    .insert(users)
    .values({ id, email: `${id}@example.test`, createdAt: Date.now(), ...prefs })
  return id
}

const alert = (userId: string, kind: Alert['kind'], n: number): Alert => ({
  userId,
  requestId: 'sr_caps',
  dedupeKey: `caps:${kind}:${n}`,
  kind,
  title: `${kind} ${n}`,
  body: 'body',
  link: null,
})

async function counts(userId: string) {
  const inbox = await env.DB.prepare('select count(*) as n from notifications where user_id = ?').bind(userId).first<{ n: number }>()
  const mail = await env.DB.prepare('select subject from outbox where user_id = ? order by id').bind(userId).all<{ subject: string }>()
  return { inbox: inbox?.n ?? 0, emailed: mail.results.map((r) => r.subject) }
}

describe('notify: switches and the daily cap', () => {
  it('emails table alerts up to the daily cap, then keeps them in the inbox only; other notices are not counted', async () => {
    const userId = await newUser({ dailyAlertCap: 2 })
    const deps = depsOf(env)
    for (const n of [1, 2, 3]) await notifyUser(deps, alert(userId, 'table_found', n), () => undefined)
    await notifyUser(deps, alert(userId, 'booked', 1), () => undefined)
    expect(await counts(userId)).toEqual({ inbox: 4, emailed: ['table_found 1', 'table_found 2', 'booked 1'] })
  })

  it('counts the table alerts of one batch one by one: the first within the cap are emailed, the rest kept in the inbox', async () => {
    const userId = await newUser({ dailyAlertCap: 3 })
    const deps = depsOf(env)
    await notifyUser(deps, alert(userId, 'table_found', 1), () => undefined)
    const batch = [2, 3, 4].map((n) => alert(userId, 'table_found', n))
    expect(await notifyUserOfAll(deps, userId, [...batch, alert(userId, 'booked', 1)], () => undefined)).toBe(4)
    expect(await counts(userId)).toEqual({ inbox: 5, emailed: ['table_found 1', 'table_found 2', 'table_found 3', 'booked 1'] })
  })

  it('keeps a kind switched off in the inbox, without email', async () => {
    const userId = await newUser({ noticesOff: ['approval', 'health'] })
    const deps = depsOf(env)
    await notifyUser(deps, alert(userId, 'approval_needed', 1), () => undefined)
    await notifyUser(deps, alert(userId, 'checks_blocked', 1), () => undefined)
    await notifyUser(deps, alert(userId, 'request_ended', 1), () => undefined)
    expect(await counts(userId)).toEqual({ inbox: 3, emailed: ['request_ended 1'] })
  })
})
