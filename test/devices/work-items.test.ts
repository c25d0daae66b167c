// Work items between the service and a device: acknowledged, answered once; a result
// delivered twice changes nothing; an item the device lost with its connection is sent again to
// the device that comes back; a device can act only for its own user.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { ServiceMessage } from '../../src/platform/device-protocol'
import { WebClient } from '../web/web-client'
import { DeviceSocket, pairDevice } from './device-client'

const empty = { kind: 'ok', value: [] }
const held = { kind: 'ok', value: [{ reservationId: '1', venueId: 1, day: '2026-12-01', time: '19:00', partySize: 2, seatingType: 'Bar' }] }

async function userWithDevice() {
  const client = new WebClient()
  const email = await client.newUser()
  const userId = (await env.DB.prepare('select id from users where email = ?').bind(email).first<{ id: string }>())?.id ?? ''
  const paired = await pairDevice(client)
  const objectOf = (id: string) => env.DEVICES.get(env.DEVICES.idFromName(id))
  return { client, userId, ...paired, device: objectOf(userId), objectOf }
}

const workOf = (socket: DeviceSocket) => socket.received.filter((m): m is Extract<ServiceMessage, { type: 'work' }> => m.type === 'work')

describe('work items', () => {
  it('stores the first result of an id; a second delivery changes nothing and asking again returns the first', async () => {
    const { credential, device } = await userWithDevice()
    const socket = await DeviceSocket.open(credential)
    socket.hello()
    await expect.poll(async () => (await device.status()).connected).toBe(true)

    const answer = device.perform('reservations:1', { op: 'reservations' })
    await socket.until((s) => workOf(s).length === 1)
    expect(workOf(socket)[0]).toEqual({ type: 'work', id: 'reservations:1', call: { op: 'reservations' } })
    socket.send({ type: 'ack', id: 'reservations:1' })
    socket.send({ type: 'result', id: 'reservations:1', result: held })
    expect(await answer).toEqual(held)
    socket.send({ type: 'result', id: 'reservations:1', result: empty })
    await socket.until((s) => s.received.filter((m) => m.type === 'stored').length === 2)
    expect(await device.perform('reservations:1', { op: 'reservations' })).toEqual(held)
    expect(workOf(socket)).toHaveLength(1)
  })

  it('sends an unanswered item again to the device that reconnects, which answers it once', async () => {
    const { credential, device } = await userWithDevice()
    const first = await DeviceSocket.open(credential)
    first.hello()
    await expect.poll(async () => (await device.status()).connected).toBe(true)
    const answer = device.perform('details:1', { op: 'details', query: { configId: 'c1', day: '2026-12-01', partySize: 2 } })
    await first.until((s) => workOf(s).length === 1)
    // A second connection of the same device (the first is about to drop) says hello: the item comes again.
    const second = await DeviceSocket.open(credential)
    second.hello()
    await second.until((s) => workOf(s).length === 1)
    first.ws.close(1001, 'wifi')
    second.send({ type: 'result', id: 'details:1', result: { kind: 'not_found' } })
    expect(await answer).toEqual({ kind: 'not_found' })
  })

  it('answers "nobody took it" at once when no device is connected, and refuses unreadable messages', async () => {
    const { credential, device } = await userWithDevice()
    expect(await device.perform('reservations:2', { op: 'reservations' })).toBeNull()
    const socket = await DeviceSocket.open(credential)
    socket.send({ type: 'result', id: 'x', result: { kind: 'made-up' } })
    socket.ws.send('not json')
    await socket.until((s) => s.received.filter((m) => m.type === 'error').length === 2)
    expect((await device.status()).connected).toBe(false) // no hello yet
  })

  it('takes a result only in the shape its call needs: an unreadable booking is verified, an unreadable read fails', async () => {
    const { credential, device } = await userWithDevice()
    const socket = await DeviceSocket.open(credential)
    socket.hello()
    await expect.poll(async () => (await device.status()).connected).toBe(true)

    // A "booked" without the reservation id the service verifies against.
    const booking = device.perform('book:1', { op: 'book', bookToken: 'bt-1' })
    await socket.until((s) => workOf(s).length === 1)
    socket.send({ type: 'result', id: 'book:1', result: { kind: 'booked' } })
    expect(await booking).toEqual({ kind: 'unknown', detail: expect.stringMatching(/could not read/) })

    // Slots whose money terms are missing never reach the booking decision.
    const find = device.perform('find:1', { op: 'find', query: { venueId: 1, day: '2026-12-01', partySize: 2 } })
    await socket.until((s) => workOf(s).length === 2)
    socket.send({
      type: 'result',
      id: 'find:1',
      result: { kind: 'ok', value: [{ venueId: 1, configId: 'c', day: '2026-12-01', time: '19:00' }] },
    })
    expect(await find).toEqual({ kind: 'unavailable', detail: expect.stringMatching(/could not read/) })

    // The device is told, and a well-formed result of a read is taken as it is.
    await socket.until((s) => s.received.filter((m) => m.type === 'error').length === 2)
    const reservations = device.perform('reservations:9', { op: 'reservations' })
    await socket.until((s) => workOf(s).length === 3)
    socket.send({ type: 'result', id: 'reservations:9', result: held })
    expect(await reservations).toEqual(held)
  })

  it("keeps each user's device to its own user", async () => {
    const alice = await userWithDevice()
    const bob = await userWithDevice()
    const aliceSocket = await DeviceSocket.open(alice.credential)
    aliceSocket.hello()
    await expect.poll(async () => (await alice.device.status()).connected).toBe(true)
    expect((await bob.device.status()).connected).toBe(false)
    expect(await bob.device.perform('reservations:3', { op: 'reservations' })).toBeNull()
    expect(workOf(aliceSocket)).toEqual([])
  })
})
