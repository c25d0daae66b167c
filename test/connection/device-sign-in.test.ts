// A platform sign-in made by the user's paired device, relayed from Tablewatch's page: the device
// (serve() and SignInRelay, the device program's own code, with the real platform client against
// the sandbox) makes the call, the session comes back sealed to the sign-in's key, and is stored
// sealed; the device's object keeps nothing of it, and the device keeps the session for itself.
import { env, runInDurableObject } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { Journal, memoryJournal } from '../../device/src/journal'
import { SignInRelay } from '../../device/src/relay'
import { type Served, serve } from '../../device/src/serve'
import { DEVICE_USER_AGENT } from '../../device/src/work'
import type { Account, PlatformSession } from '../../src/platform/api'
import { platformFromEnv } from '../../src/platform/from-env'
import { connect, pairDevice } from '../devices/device-client'
import { homeFetcher } from '../helpers/home-fetcher'
import { control } from '../watch/world'
import { WebClient } from '../web/web-client'

beforeEach(async () => {
  await control().reset()
})

/** A paired device online, able to sign in for its user; what it signed in to is kept as the program keeps it. */
async function deviceOnline(client: WebClient, options: { alterSent?: (data: string) => string } = {}) {
  const { credential } = await pairDevice(client, 'Home laptop')
  const res = await connect(credential)
  const ws = res.webSocket
  if (!ws) throw new Error(`no socket: ${res.status}`)
  ws.accept()
  const kept: (Account & PlatformSession)[] = []
  // What the device sends, as the service's object receives it.
  const sent: string[] = []
  const socket = {
    send: (original: string) => {
      const data = options.alterSent ? options.alterSent(original) : original
      sent.push(data)
      ws.send(data)
    },
    addEventListener: ws.addEventListener.bind(ws),
  }
  let served: Served | null = null
  const relay = new SignInRelay(platformFromEnv(env, { userAgent: DEVICE_USER_AGENT, fetcher: homeFetcher() }), (session) => {
    kept.push(session)
    served?.hello()
  })
  served = serve(socket, {
    journal: new Journal(memoryJournal()),
    platform: () => ({ connected: kept.length > 0, displayName: kept[0]?.displayName ?? null, paymentMethodOnFile: false }),
    perform: async () => ({ kind: 'reauth' }),
    version: 'test',
    relay,
  })
  return { kept, sent }
}

async function userIdOf(email: string): Promise<string> {
  return String(await env.DB.prepare('select id from users where email = ?').bind(email).first('id'))
}

/** Everything the user's device object stores, as text. */
async function deviceStorage(userId: string): Promise<string> {
  const stub = env.DEVICES.get(env.DEVICES.idFromName(userId))
  return runInDurableObject(stub, (_instance, state) =>
    JSON.stringify([...state.storage.sql.exec('select * from work').toArray(), ...state.storage.sql.exec('select * from meta').toArray()]),
  )
}

describe('signing in through the paired device', () => {
  it('connects with the password through the device, stores the session sealed, and leaves nothing of it in the device object', async () => {
    const client = new WebClient()
    const userId = await userIdOf(await client.newUser())
    const device = await deviceOnline(client)
    // Settings offers the device once it says it can sign in.
    const connected = await client.post('/settings/platform/connect', {
      platform_email: 'relayed@example.test',
      platform_password: 'relayed-secret-pw',
      accept_risk: 'on',
      via: 'device',
      _csrf: await client.csrfFrom('/settings'),
    })
    expect(connected.headers.get('Location')).toBe('/settings?done=connected')
    expect(device.kept).toHaveLength(1)
    const token = device.kept[0]?.authToken ?? 'missing'
    // On the wire the session was sealed: the device's answer never carries it readable.
    expect(device.sent.some((m) => m.includes('"signed_in"'))).toBe(true)
    expect(device.sent.join('\n')).not.toContain(token)
    const row = JSON.stringify(await env.DB.prepare('select * from platform_connections where user_id = ?').bind(userId).first())
    expect(row).toContain('token_ciphertext')
    expect(row).not.toContain(token)
    expect(row).not.toContain('relayed-secret-pw')
    const stored = await deviceStorage(userId)
    expect(stored).not.toContain(token)
    expect(stored).not.toContain('relayed-secret-pw')
    expect(await (await client.get('/settings')).text()).toContain('Connected as')
  })

  it('in datacenter mode, connects a code-only account by code through the device, the diner typing the code on the page', async () => {
    const client = new WebClient()
    const userId = await userIdOf(await client.newUser())
    const mobileNumber = '+16465550188'
    const email = `dc-${crypto.randomUUID().slice(0, 6)}@example.test`
    await control().createAccount({ email, password: null, mobileNumber, card: true, challenge: true })
    await control().setSignInSettings({ datacenter: { refuse: ['sign_in', 'refresh', 'details', 'book'] } })
    const refused = await client.post('/settings/platform/code', { mobile_number: mobileNumber, _csrf: await client.csrfFrom('/settings') })
    expect(await refused.text()).toContain('The platform does not let our servers sign you in.')

    const device = await deviceOnline(client)
    const settings = await (await client.get('/settings')).text()
    expect(settings).toContain('Text me a code through my computer')
    const sent = await client.post('/settings/platform/code', {
      mobile_number: mobileNumber,
      via: 'device',
      _csrf: await client.csrfFrom('/settings'),
    })
    expect(sent.headers.get('Location')).toBe('/settings/platform/code')
    expect(await (await client.get('/settings/platform/code')).text()).toContain('asked for by your paired computer')
    const code = (await control().lastCode(mobileNumber)) ?? 'none'
    const checked = await client.post('/settings/platform/code/check', {
      code,
      accept_risk: 'on',
      _csrf: await client.csrfFrom('/settings/platform/code'),
    })
    expect(checked.headers.get('Location')).toBe('/settings/platform/code')
    const answered = await client.post('/settings/platform/code/email', { email, _csrf: await client.csrfFrom('/settings/platform/code') })
    expect(answered.headers.get('Location')).toBe('/settings?done=connected')
    expect(device.kept).toHaveLength(1)
    const token = device.kept[0]?.authToken ?? 'missing'
    expect(device.sent.join('\n')).not.toContain(token)
    expect(device.sent.join('\n')).not.toContain(code)
    expect(await deviceStorage(userId)).not.toContain(token)
    expect(await deviceStorage(userId)).not.toContain(code)
  })

  it('says plainly when no device can sign in, and changes nothing', async () => {
    const client = new WebClient()
    const userId = await userIdOf(await client.newUser())
    const res = await client.post('/settings/platform/connect', {
      platform_email: 'nobody@example.test',
      platform_password: 'pw',
      accept_risk: 'on',
      via: 'device',
      _csrf: await client.csrfFrom('/settings'),
    })
    expect(res.status).toBe(422)
    expect(await res.text()).toContain('No paired device of yours is connected and able to sign in right now.')
    expect(await env.DB.prepare('select count(*) as n from platform_connections where user_id = ?').bind(userId).first('n')).toBe(0)
  })

  it('a device answer that does not open under the sign-in’s key is a 4xx with what to do, on the page and in the JSON API, and connects nothing', async () => {
    const client = new WebClient()
    const userId = await userIdOf(await client.newUser())
    // The session arrives sealed to another key than this sign-in's (an answer for another sign-in).
    const otherKey = (data: string) =>
      data.includes('"signed_in"') ? data.replace(/"ciphertext":"[^"]+"/, `"ciphertext":"${btoa('not for this sign-in at all')}"`) : data
    await deviceOnline(client, { alterSent: otherKey })
    const page = await client.post('/settings/platform/connect', {
      platform_email: 'relayed@example.test',
      platform_password: 'relayed-secret-pw',
      accept_risk: 'on',
      via: 'device',
      _csrf: await client.csrfFrom('/settings'),
    })
    expect(page.status).toBe(422)
    expect(await page.text()).toContain('The answer from your computer was not for this sign-in')
    const csrf = ((await (await client.get('/account/platform')).json()) as { csrf_token: string }).csrf_token
    const json = await client.fetcher(
      new Request(`${client.origin}/account/platform/connect`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'x-csrf-token': csrf,
          Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        },
        body: JSON.stringify({ email: 'relayed@example.test', password: 'relayed-secret-pw', acknowledge_risk: true, via: 'device' }),
      }),
    )
    expect(json.status).toBe(422)
    expect(await json.json()).toMatchObject({
      code: 'platform_sign_in_refused',
      message: expect.stringContaining('The answer from your computer was not for this sign-in'),
    })
    expect(await env.DB.prepare('select count(*) as n from platform_connections where user_id = ?').bind(userId).first('n')).toBe(0)
  })
})
