// Booking from a paired device, in workerd: the device's own code (device/src) talks
// to the real DeviceObject over a real WebSocket and to the sandbox with the real platform
// client and its own platform sign-in. The service holds no platform token for this user.
import { env, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { Journal, memoryJournal } from '../../device/src/journal'
import { serve } from '../../device/src/serve'
import { DEVICE_USER_AGENT, DeviceSignIn, performCall } from '../../device/src/work'
import { startPairing } from '../../src/auth/device-credentials'
import { budgetObject } from '../../src/budget/budget'
import { chooseExecution, pairDevice } from '../../src/devices/device-settings'
import type { WorkCall } from '../../src/platform/device-protocol'
import { platformFromEnv } from '../../src/platform/from-env'
import { DEFAULT_USER_AGENT } from '../../src/platform/user-agent'
import { VENUE_LIMIT } from '../../src/watching/limits'
import { connect } from '../devices/device-client'
import { api } from '../helpers/api'
import {
  availabilityOf,
  control,
  createApproved,
  ledgerOf,
  notificationsOf,
  runAlarm,
  runPoll,
  setUp,
  poll as sharedPoll,
  VENUE,
  view,
} from './world'

type World = Awaited<ReturnType<typeof setUp>>

/** Pairs a device for the user and chooses to book from it. */
async function pairedDevice(world: World) {
  const { userCode } = await startPairing(world.deps.db, world.userId, Date.now())
  const { credential } = await pairDevice(world.deps, { userCode, deviceName: 'Test Pi', address: 'test' })
  await chooseExecution(world.deps, world.userId, { execution: 'user_device', cloudFallback: false })
  return credential
}

/** The device program's work, in this test: its own platform client and sign-in, a journal. */
async function deviceRuntime(world: World) {
  const platform = platformFromEnv(env, { userAgent: DEVICE_USER_AGENT })
  const login = await platform.login(world.platformEmail, 'secret')
  if (login.kind !== 'ok') throw new Error(`device login: ${login.kind}`)
  const signIn = new DeviceSignIn(platform, login.value)
  const journal = new Journal(memoryJournal())
  const calls: WorkCall['op'][] = []
  return { platform, signIn, account: login.value, journal, calls }
}

type Runtime = Awaited<ReturnType<typeof deviceRuntime>>

async function online(
  credential: string,
  runtime: Runtime,
  perform = (call: WorkCall) => performCall(runtime.platform, runtime.signIn, call),
) {
  const res = await connect(credential)
  const ws = res.webSocket
  if (!ws) throw new Error(`no socket: ${res.status}`)
  ws.accept()
  const stored: string[] = []
  ws.addEventListener('message', (e) => {
    const m = JSON.parse(String(e.data)) as { type: string; id?: string }
    if (m.type === 'stored' && m.id) stored.push(m.id)
  })
  serve(ws, {
    journal: runtime.journal,
    platform: () => ({
      connected: true,
      displayName: runtime.account.displayName,
      paymentMethodOnFile: runtime.account.paymentMethodId !== null,
    }),
    perform: (call) => {
      runtime.calls.push(call.op)
      return perform(call)
    },
    version: 'test',
  })
  return { ws, stored }
}

/** The user's own availability object for the venue-day: their device checks it. */
const devicesAvailability = (world: World) => env.AVAILABILITY.get(env.AVAILABILITY.idFromName(`${VENUE}:${world.day}:2@${world.userId}`))

/** The next poll of the user's own venue-day object (the interval passed: its answer in memory is forgotten). */
async function poll(world: World): Promise<void> {
  const stub = devicesAvailability(world)
  await evictDurableObject(stub).catch(() => undefined)
  if (await runDurableObjectAlarm(stub)) return
  await runInDurableObject(stub, (_instance, state) => state.storage.setAlarm(Date.now()))
  await runDurableObjectAlarm(stub)
}

const executorOf = async (token: string) => (await api('/capabilities', { token })).body.executor

/** An approved auto_book request whose table the sandbox drops, seen by two polls of the venue-day. */
async function approvedWithTableDropped(world: World) {
  await control().addSlot({ venueId: VENUE, day: world.day, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
  const request = await createApproved(world.token, world.userId, world.spec())
  await poll(world)
  await poll(world)
  return request
}

/**
 * A paired device that books a slot that appears, then loses its connection before the result
 * goes out; returns once the request is awaiting verification.
 */
async function bookingCutOff(world: World, reason: string) {
  const credential = await pairedDevice(world)
  const runtime = await deviceRuntime(world)
  let connection: Awaited<ReturnType<typeof online>> | null = null
  connection = await online(credential, runtime, async (call) => {
    const result = await performCall(runtime.platform, runtime.signIn, call)
    if (call.op === 'book') connection?.ws.close(1001, reason)
    return result
  })
  const request = await approvedWithTableDropped(world)
  return { credential, runtime, request }
}

describe('booking from a paired device', () => {
  it('books through the device with its own sign-in; the sandbox records the device as the client', async () => {
    const world = await setUp({ connect: false })
    const credential = await pairedDevice(world)
    expect(await executorOf(world.token)).toEqual({ ready: false, reason: 'device_offline', execution: 'user_device' })
    const runtime = await deviceRuntime(world)
    await online(credential, runtime)
    await expect.poll(() => executorOf(world.token)).toEqual({ ready: true, execution: 'user_device' })

    const request = await approvedWithTableDropped(world)
    await runAlarm(request.id)

    const seen = await view(world.token, request.id)
    expect(seen.status).toBe('confirmed')
    expect(seen.reservations).toEqual([expect.objectContaining({ verified: true, time: '23:15' })])
    const ledger = await ledgerOf(world.platformEmail)
    expect(ledger).toHaveLength(1)
    expect(ledger[0]?.client).toBe(DEVICE_USER_AGENT)
    expect(ledger[0]?.client).not.toBe(DEFAULT_USER_AGENT)
    // Availability too was checked by the device, through the user's own venue-day object.
    expect(runtime.calls).toEqual(expect.arrayContaining(['find', 'details', 'reservations', 'book']))
    expect(seen.last_checked_at).not.toBeNull()
    // The service never held a platform token for this user.
    const stored = await env.DB.prepare('select count(*) as n from platform_connections where user_id = ?')
      .bind(world.userId)
      .first<{ n: number }>()
    expect(stored?.n).toBe(0)
  })

  it('books at a release instant through the device at once, though the service’s window and the venue’s cap are spent', async () => {
    const world = await setUp({ connect: false })
    const credential = await pairedDevice(world)
    const runtime = await deviceRuntime(world)
    await online(credential, runtime)
    await expect.poll(() => executorOf(world.token)).toEqual({ ready: true, execution: 'user_device' })
    await control().addSlot({ venueId: VENUE, day: world.day, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    const request = await createApproved(world.token, world.userId, world.spec())
    // The day opens now (its venue's horizon object says so): the device's venue-day bursts.
    await devicesAvailability(world).venueRelease([Date.now()])
    // The service's side of the instant is spent: its window (one call in 10 s, taken) and the venue's cap of finds.
    await budgetObject(env).setBudget(0.1)
    try {
      await budgetObject(env).lease({ tier: 'booking', cost: 1, key: 'a cloud booking' })
      const venueCap = env.LIMITER.get(env.LIMITER.idFromName(`venue:${VENUE}`))
      while ((await venueCap.take(VENUE_LIMIT, 1)) === 0) {}
      await poll(world)
      await runAlarm(request.id)
      expect(await ledgerOf(world.platformEmail)).toEqual([expect.objectContaining({ client: DEVICE_USER_AGENT, time: '23:15' })])
      expect((await view(world.token, request.id)).status).toBe('confirmed')
      expect(runtime.calls).toEqual(expect.arrayContaining(['find', 'details', 'reservations', 'book']))
    } finally {
      await budgetObject(env).setBudget(null)
    }
  })

  it('renews the device’s own expired sign-in with its refresh token and books, without asking anyone to sign in again', async () => {
    const world = await setUp({ connect: false })
    const credential = await pairedDevice(world)
    const runtime = await deviceRuntime(world)
    await online(credential, runtime)
    await expect.poll(() => executorOf(world.token)).toEqual({ ready: true, execution: 'user_device' })
    // The device's auth token runs out before its `exp`: its next account calls get 419.
    await control().expireAuthTokens()

    const request = await approvedWithTableDropped(world)
    await runAlarm(request.id)

    const seen = await view(world.token, request.id)
    expect(seen.status).toBe('confirmed')
    expect(seen.trace.map((t) => t.message).join('\n')).not.toMatch(/refused the paired device/)
    expect(await ledgerOf(world.platformEmail)).toEqual([expect.objectContaining({ client: DEVICE_USER_AGENT })])
    // One refresh for the details and reservations reads rejected together.
    expect((await control().calls()).refresh).toBe(1)
  })

  it('renews the device’s sign-in ahead of its expiry, so its account calls are never rejected first', async () => {
    const world = await setUp({ connect: false })
    await control().setTokenLifetimes({ authSeconds: 3600, refreshSeconds: 86_400 })
    const platform = platformFromEnv(env, { userAgent: DEVICE_USER_AGENT })
    const login = await platform.login(world.platformEmail, 'secret')
    if (login.kind !== 'ok' || login.value.expiresAt === null) throw new Error('device login')
    const { expiresAt } = login.value
    let now = Date.now()
    const renewed: string[] = []
    const signIn = new DeviceSignIn(
      platform,
      { ...login.value, obtainedAt: now },
      (s) => renewed.push(s.authToken),
      () => now,
    )
    const reservations: WorkCall = { op: 'reservations' }
    const before = await control().calls()
    const since = async (endpoint: 'refresh' | 'reservations') => ((await control().calls())[endpoint] ?? 0) - (before[endpoint] ?? 0)

    // Most of its hour left: used as it is.
    expect((await performCall(platform, signIn, reservations)).kind).toBe('ok')
    expect(await since('refresh')).toBe(0)

    // Ten minutes left (under a quarter of its life): renewed first, then the call goes once.
    now = expiresAt - 10 * 60_000
    expect((await performCall(platform, signIn, reservations)).kind).toBe('ok')
    expect(await since('refresh')).toBe(1)
    expect(await since('reservations')).toBe(2)
    expect(signIn.session?.authToken).not.toBe(login.value.authToken)
    expect(renewed).toEqual([signIn.session?.authToken])
  })

  it('pauses watching while the device is offline, says so in the trace, and resumes when it is back', async () => {
    const world = await setUp({ connect: false })
    const credential = await pairedDevice(world)
    const request = await createApproved(world.token, world.userId, world.spec())
    let seen = await view(world.token, request.id)
    expect(seen.status).toBe('active')
    expect(seen.status_reason).toMatch(/^Paused: your paired device is offline/)
    expect(seen.trace.map((t) => t.message)).toContain(seen.status_reason)

    const runtime = await deviceRuntime(world)
    const { ws } = await online(credential, runtime)
    await expect.poll(async () => (await view(world.token, request.id)).status_reason).toBeNull()
    seen = await view(world.token, request.id)
    expect(seen.trace.map((t) => t.message)).toContain('The paired device is connected again; watching for tables.')

    ws.close(1000, 'laptop closed')
    await expect.poll(async () => (await view(world.token, request.id)).status_reason).toMatch(/^Paused: your paired device is offline/)
    expect(await executorOf(world.token)).toEqual({ ready: false, reason: 'device_offline', execution: 'user_device' })
    // Nothing falls back to the cloud: a drop while offline is not booked.
    await control().addSlot({ venueId: VENUE, day: world.day, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    await poll(world)
    await runAlarm(request.id)
    expect(await ledgerOf(world.platformEmail)).toEqual([])
    expect((await view(world.token, request.id)).status).toBe('active')
  })

  it('verifies a booking whose device dropped mid-booking once it reconnects, and books once', async () => {
    const world = await setUp({ connect: false })
    const { credential, runtime, request } = await bookingCutOff(world, 'wifi dropped')
    expect((await view(world.token, request.id)).status).toBe('awaiting_verification')
    await runAlarm(request.id) // still offline: nothing can be read, nothing is booked again
    expect((await view(world.token, request.id)).status).toBe('awaiting_verification')

    const again = await online(credential, runtime)
    // The result kept in the journal is delivered on reconnect; the service stores it once.
    await expect.poll(() => again.stored.length).toBeGreaterThan(0)
    await runAlarm(request.id)
    const seen = await view(world.token, request.id)
    expect(seen.status).toBe('confirmed')
    expect(seen.reservations).toEqual([expect.objectContaining({ verified: true })])
    expect(await ledgerOf(world.platformEmail)).toHaveLength(1)
    expect(runtime.calls.filter((op) => op === 'book')).toHaveLength(1)
  })

  it('moves the checks back to the shared objects and books with the cloud token when the user switches to the cloud', async () => {
    const world = await setUp()
    const credential = await pairedDevice(world)
    const runtime = await deviceRuntime(world)
    await online(credential, runtime)
    await expect.poll(() => executorOf(world.token)).toEqual({ ready: true, execution: 'user_device' })
    const request = await createApproved(world.token, world.userId, world.spec())
    const subscribers = (stub: DurableObjectStub) =>
      runInDurableObject(stub, async (_i, state) => state.storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM subscribers').one().n)
    expect(await subscribers(devicesAvailability(world))).toBe(1)

    await chooseExecution(world.deps, world.userId, { execution: 'cloud', cloudFallback: false })
    expect(await subscribers(devicesAvailability(world))).toBe(0)
    expect(await subscribers(availabilityOf(world.day))).toBe(1)
    expect((await view(world.token, request.id)).trace.map((t) => t.message)).toContain('Checks and booking now run in the cloud.')

    await control().addSlot({ venueId: VENUE, day: world.day, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    await sharedPoll(world.day)
    await runPoll(world.day)
    await runAlarm(request.id)
    expect((await view(world.token, request.id)).status).toBe('confirmed')
    expect((await ledgerOf(world.platformEmail)).map((b) => b.client)).toEqual([DEFAULT_USER_AGENT])
    expect(runtime.calls).not.toContain('book')
  })

  it('tells the user once when the device has been offline for 10 minutes', async () => {
    const world = await setUp({ connect: false })
    const credential = await pairedDevice(world)
    const { ws } = await online(credential, await deviceRuntime(world))
    await expect.poll(() => executorOf(world.token)).toEqual({ ready: true, execution: 'user_device' })
    ws.close(1000, 'unplugged')
    const device = env.DEVICES.get(env.DEVICES.idFromName(world.userId))
    await expect.poll(() => runInDurableObject(device, (_i, state) => state.storage.getAlarm())).not.toBeNull()
    expect(await runDurableObjectAlarm(device)).toBe(true)
    await runInDurableObject(device, (_i, state) => state.storage.setAlarm(Date.now()))
    await runDurableObjectAlarm(device)
    const alerts = (await notificationsOf(world.userId)).filter((n) => n.kind === 'device_offline')
    expect(alerts).toEqual([expect.objectContaining({ title: 'Your paired device is offline' })])
    expect(alerts[0]?.body).toContain('watching and booking are paused')
  })

  it('verifies a booking in flight with the cloud token when the device does not come back', async () => {
    const world = await setUp() // this user also connected the platform in the cloud
    const { request } = await bookingCutOff(world, 'unplugged for good')
    // The device is gone and stays gone: the account is read with the cloud token (reading never books).
    await runAlarm(request.id)
    expect((await env.DEVICES.get(env.DEVICES.idFromName(world.userId)).status()).connected).toBe(false)
    const seen = await view(world.token, request.id)
    expect(seen.status).toBe('confirmed')
    expect(seen.reservations).toEqual([expect.objectContaining({ verified: true })])
    expect((await ledgerOf(world.platformEmail)).map((b) => b.client)).toEqual([DEVICE_USER_AGENT])
  })

  it('keeps watching in the cloud while the device is offline only when the user turned the fallback on', async () => {
    const world = await setUp()
    await pairedDevice(world)
    await chooseExecution(world.deps, world.userId, { execution: 'user_device', cloudFallback: true })
    expect(await executorOf(world.token)).toEqual({ ready: true, execution: 'cloud' })
    const request = await createApproved(world.token, world.userId, world.spec())
    expect((await view(world.token, request.id)).status_reason).toBeNull()
    await control().addSlot({ venueId: VENUE, day: world.day, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    await sharedPoll(world.day)
    await runPoll(world.day)
    await runAlarm(request.id)
    expect((await view(world.token, request.id)).status).toBe('confirmed')
    expect((await ledgerOf(world.platformEmail)).map((b) => b.client)).toEqual([DEFAULT_USER_AGENT])
  })
})
