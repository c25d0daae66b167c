// "Sign out everywhere" and the password change also offer to revoke personal
// access tokens, connected assistants, paired devices and the calendar feed (checkboxes, none
// ticked by default, behind the form's CSRF token). Before, they ended sessions only.
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { pairDevice } from '../devices/device-client'
import { WebClient } from './web-client'

const PASSWORD = 'correct horse battery'

async function patWorks(token: string): Promise<boolean> {
  const res = await SELF.fetch('http://localhost/api/v1/requests', { headers: { Authorization: `Bearer ${token}` } })
  return res.status === 200
}

async function deviceWorks(credential: string): Promise<boolean> {
  const res = await SELF.fetch('http://localhost/device/v1/connect', { headers: { Authorization: `Bearer ${credential}` } })
  return res.status !== 401 && res.status !== 403
}

describe('also revoke', () => {
  it('offers the four checkboxes on both forms, unticked', async () => {
    const client = new WebClient()
    await client.newUser()
    const html = await (await client.get('/settings/security')).text()
    for (const value of ['tokens', 'grants', 'devices', 'calendar']) {
      expect(html.match(new RegExp(`name="also_revoke" value="${value}"/?>`, 'g'))).toHaveLength(2)
    }
  })

  it('sign out everywhere with tokens and devices ticked ends them; unticked they keep working', async () => {
    const client = new WebClient()
    await client.newUser()
    const kept = await client.createToken('kept')
    await client.post('/settings/signout-everywhere', { _csrf: await client.csrfFrom('/settings/security') })
    expect(await patWorks(kept)).toBe(true)

    const other = new WebClient()
    await other.newUser()
    const token = await other.createToken('ended')
    const device = await pairDevice(other)
    const res = await other.post('/settings/signout-everywhere', {
      _csrf: await other.csrfFrom('/settings/security'),
      also_revoke: ['tokens', 'devices'],
    })
    expect(res.status).toBe(303)
    expect(await patWorks(token)).toBe(false)
    expect(await deviceWorks(device.credential)).toBe(false)
  })

  it('the password change with tokens ticked ends them too', async () => {
    const client = new WebClient()
    await client.newUser(PASSWORD)
    const token = await client.createToken()
    const res = await client.post('/settings/password', {
      _csrf: await client.csrfFrom('/settings/security'),
      current_password: PASSWORD,
      new_password: 'a brand new password',
      also_revoke: 'tokens',
    })
    expect(res.status).toBe(303)
    expect(await patWorks(token)).toBe(false)
  })

  it('without the CSRF token revokes nothing', async () => {
    const client = new WebClient()
    await client.newUser()
    const token = await client.createToken()
    const res = await client.post('/settings/signout-everywhere', { also_revoke: 'tokens' })
    expect(res.status).toBe(403)
    expect(await patWorks(token)).toBe(true)
  })
})
