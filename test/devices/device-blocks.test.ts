// A paired device reads the platform with the same client code as the service (device/src/work.ts
// → src/platform/client.ts), so it meets the CDN the same way (shared/reference/resy-api.md, "Corrections (third review)"):
// answers carrying Imperva's headers are the API's, each block form is a block, and the service
// accepts the device's report of either (src/platform/device-results.ts).
import { describe, expect, it } from 'vitest'
import { DEVICE_USER_AGENT, DeviceSignIn, performCall } from '../../device/src/work'
import type { WorkCall } from '../../src/platform/device-protocol'
import { readDeviceResult } from '../../src/platform/device-results'
import { freshWorld, OPEN_VENUE, ownSlot } from '../platform/world'

describe('a paired device behind the platform’s CDN', () => {
  it('reads answers with the CDN’s headers as the API’s, and reports each block form the service can read', async () => {
    const world = freshWorld({ userAgent: DEVICE_USER_AGENT })
    const login = await world.platform.login('ada@example.com', 'pw')
    if (login.kind !== 'ok') throw new Error(login.kind)
    const signIn = new DeviceSignIn(world.platform, login.value)
    const slot = await ownSlot(world)
    const find = { op: 'find', query: { venueId: OPEN_VENUE.id, day: slot.day, partySize: 2 } } satisfies WorkCall
    const reservations = { op: 'reservations' } satisfies WorkCall

    const found = await performCall(world.platform, signIn, find)
    const times = found.kind === 'ok' && Array.isArray(found.value) ? found.value.map((s) => s.time) : []
    expect(times).toContain(slot.time)
    expect(readDeviceResult(find, JSON.parse(JSON.stringify(found)))).toMatchObject({ readable: true, result: { kind: 'ok' } })
    // Every new account's cancelled and past entries hold no table, on the device too.
    expect(await performCall(world.platform, signIn, reservations)).toEqual({ kind: 'ok', value: [] })

    for (const [style, signal] of [
      ['plain_500', 'plain_500'],
      ['empty_500', 'empty_500'],
      ['imperva', 'imperva'],
      ['html_403', 'html_page'],
      ['cloudfront', 'cloudfront'],
    ] as const) {
      await world.control.block({ userAgent: DEVICE_USER_AGENT, forMs: 60_000, style })
      const blocked = await performCall(world.platform, signIn, find)
      expect(blocked).toEqual({ kind: 'blocked', signal })
      expect(readDeviceResult(find, JSON.parse(JSON.stringify(blocked)))).toEqual({ readable: true, result: { kind: 'blocked', signal } })
    }
  })
})
