// In datacenter mode the platform refuses the service's refresh of a session while it still
// serves the session's reads from the cloud (docs/platform.md, "Where calls may come from"). The
// paired device (serve() and SignInRelay, the device program's own code, with the real platform
// client against the sandbox, from the diner's network) refreshes it instead: the session outlives
// its first token, and its second, without the diner signing in again; no token travels readable.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { Journal, memoryJournal } from '../../device/src/journal'
import { SignInRelay } from '../../device/src/relay'
import { serve } from '../../device/src/serve'
import { DEVICE_USER_AGENT } from '../../device/src/work'
import { userSession } from '../../src/executors/platform-session'
import { platformFromEnv } from '../../src/platform/from-env'
import { depsOf } from '../../src/runtime/deps'
import { connect, pairDevice } from '../devices/device-client'
import { homeFetcher } from '../helpers/home-fetcher'
import { control } from '../watch/world'
import { WebClient } from '../web/web-client'

beforeEach(async () => {
  await control().reset()
})

/** A paired device online that can make sign-ins (and so refreshes) for its user. */
async function deviceOnline(client: WebClient) {
  const { credential } = await pairDevice(client, 'Home laptop')
  const res = await connect(credential)
  const ws = res.webSocket
  if (!ws) throw new Error(`no socket: ${res.status}`)
  ws.accept()
  const sent: string[] = []
  const socket = {
    send: (data: string) => {
      sent.push(data)
      ws.send(data)
    },
    addEventListener: ws.addEventListener.bind(ws),
  }
  const relay = new SignInRelay(platformFromEnv(env, { userAgent: DEVICE_USER_AGENT, fetcher: homeFetcher() }), () => undefined)
  serve(socket, {
    journal: new Journal(memoryJournal()),
    platform: () => ({ connected: false, displayName: null, paymentMethodOnFile: false }),
    perform: async () => ({ kind: 'reauth' }),
    version: 'test',
    relay,
  })
  return { sent }
}

const tokenRow = (userId: string) =>
  env.DB.prepare('select token_ciphertext, state from platform_connections where user_id = ?')
    .bind(userId)
    .first<{ token_ciphertext: string; state: string }>()

const waitMs = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('refreshing the session from the diner’s side', () => {
  it('in datacenter mode, the session outlives its first token through the paired device, twice', async () => {
    const client = new WebClient()
    await client.newUser()
    const userId = String(await env.DB.prepare('select id from users order by created_at desc limit 1').first('id'))
    const device = await deviceOnline(client)
    await control().setSignInSettings({ datacenter: { refuse: ['sign_in', 'refresh'] } })
    await control().setTokenLifetimes({ authSeconds: 2, refreshSeconds: 3600 })
    const connected = await client.post('/settings/platform/connect', {
      platform_email: 'refresh-dc@example.test',
      platform_password: 'refresh-dc-pw',
      accept_risk: 'on',
      via: 'device',
      _csrf: await client.csrfFrom('/settings'),
    })
    expect(connected.headers.get('Location')).toBe('/settings?done=connected')
    const deps = depsOf(env)

    let previous = (await tokenRow(userId))?.token_ciphertext
    for (const round of [1, 2]) {
      await waitMs(2_500) // the token in use has expired
      const session = await userSession(depsOf(env), userId)
      if (!session) throw new Error(`round ${round}: no session`)
      const account = await session.read((credentials) => deps.platform.checkAccount(credentials))
      expect(account.kind, `round ${round}`).toBe('ok')
      const row = await tokenRow(userId)
      expect(row?.state).toBe('ok')
      expect(row?.token_ciphertext).not.toBe(previous)
      previous = row?.token_ciphertext
    }

    // The cloud's own refresh was refused (the CDN's answer), and remembered; the device's worked.
    const refusals = await env.DB.prepare('select call from cloud_refusals where user_id = ?').bind(userId).all<{ call: string }>()
    expect(refusals.results.map((r) => r.call)).toContain('refresh')
    expect(device.sent.filter((m) => m.includes('"refreshed"'))).toHaveLength(2)
    // The new sessions went back sealed: no auth token of the account in the device's answers.
    const session = await userSession(depsOf(env), userId)
    const token = session?.credentials().authToken ?? 'missing'
    expect(device.sent.join('\n')).not.toContain(token)
    expect(await (await client.get('/settings')).text()).toContain('Connected as')
  })
})
