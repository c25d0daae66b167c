import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../helpers/auth'
import { WebClient } from '../web/web-client'
import { connect, DeviceSocket, pairDevice, pairingCode, pairWith } from './device-client'

const settingsPage = async (client: WebClient) => (await client.get('/settings')).text()

describe('pairing a device from Settings', () => {
  it('shows a one-time code and the command, and gives the device a credential stored only as a hash', async () => {
    const client = new WebClient()
    await client.newUser()
    const before = await settingsPage(client)
    expect(before).toContain('No device is paired.')
    expect(before).toContain('Pair a device first: booking from your device needs one')
    expect(before).toMatch(/<input type="radio" name="execution" value="user_device" disabled=""/)

    const { code, page } = await pairingCode(client)
    expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/)
    expect(page).toMatch(new RegExp(`npx tablewatch-device pair --service http://localhost(:\\d+)? --code ${code}`))
    expect(page).toContain('(10 minutes)')

    // Typed as a person would: lower case, no dash.
    const res = await pairWith(code.replace('-', '').toLowerCase(), 'Kitchen Pi')
    expect(res.status).toBe(201)
    const body = (await res.json()) as { credential: string; device_id: string }
    expect(body.credential).toMatch(/^spd_[0-9A-Za-z]{43}$/)
    const row = await env.DB.prepare('select name, credential_hash from devices where id = ?')
      .bind(body.device_id)
      .first<{ name: string; credential_hash: string }>()
    expect(row).toEqual({ name: 'Kitchen Pi', credential_hash: await sha256Hex(body.credential) })
    const pairings = await env.DB.prepare('select code_hash from device_pairings').all<{ code_hash: string }>()
    expect(JSON.stringify(pairings.results)).not.toContain(code)

    const after = await settingsPage(client)
    expect(after).toContain('Kitchen Pi')
    expect(after).toContain('Revoke Kitchen Pi')
    expect(after).not.toContain(body.credential)
    expect(after).not.toContain('Pair a device first')
    expect(after).toMatch(/<input type="radio" name="execution" value="user_device"\/?>/)
  })

  it('accepts a code once, and refuses an expired or made-up one the same way', async () => {
    const client = new WebClient()
    await client.newUser()
    const { code } = await pairingCode(client)
    expect((await pairWith(code)).status).toBe(201)
    const again = await pairWith(code)
    expect(again.status).toBe(422)
    expect(((await again.json()) as { message: string }).message).toContain('Codes work once and for 10 minutes')

    const { code: late } = await pairingCode(client)
    await env.DB.prepare('update device_pairings set expires_at = ? where used_at is null')
      .bind(Date.now() - 1)
      .run()
    expect((await pairWith(late)).status).toBe(422)
    expect((await pairWith('BCDF-GHJK')).status).toBe(422)
    expect((await pairWith('not a code at all')).status).toBe(422)
  })

  it('refuses a socket without a valid credential', async () => {
    expect((await connect('spd_nothing')).status).toBe(401)
    expect((await connect('spt_not_a_device')).status).toBe(401)
  })
})

describe('revoking a device', () => {
  it('disconnects it at once and its credential stops working', async () => {
    const client = new WebClient()
    await client.newUser()
    const { credential, deviceId } = await pairDevice(client)
    const socket = await DeviceSocket.open(credential)
    socket.hello()
    await expect.poll(async () => settingsPage(client)).toContain('A device is connected: signed in to the platform as Test Diner')

    const res = await client.post(`/settings/devices/${deviceId}/revoke`, { _csrf: await client.csrfFrom('/settings') })
    expect(res.headers.get('Location')).toBe('/settings?done=device_revoked')
    await socket.until((s) => s.closed !== null)
    expect(socket.closed?.code).toBe(4003)
    const refused = await connect(credential)
    expect(refused.status).toBe(401)
    expect(((await refused.json()) as { code: string }).code).toBe('authorization_revoked')
    const page = await settingsPage(client)
    expect(page).toContain('No device is paired.')
    expect(page).toContain('No device is connected right now.')
  })

  it("cannot revoke another user's device", async () => {
    const owner = new WebClient()
    await owner.newUser()
    const { deviceId } = await pairDevice(owner)
    const other = new WebClient()
    await other.newUser()
    const res = await other.post(`/settings/devices/${deviceId}/revoke`, { _csrf: await other.csrfFrom('/settings') })
    expect(res.status).toBe(422)
    const row = await env.DB.prepare('select revoked_at from devices where id = ?').bind(deviceId).first<{ revoked_at: number | null }>()
    expect(row?.revoked_at).toBeNull()
  })
})
