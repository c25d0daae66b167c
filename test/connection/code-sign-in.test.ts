// Connecting a code-only account (no password) by the code the platform texts, through the
// settings pages against the sandbox platform: every step's refusal gets a clear sentence and a
// next step, the sign-in under way stays server-side and sealed, and parallel tries never pass
// its cap.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { control } from '../watch/world'
import { WebClient } from '../web/web-client'

beforeEach(async () => {
  await control().reset()
})

let numbers = 0
const freshNumber = () => `+1646555${String(1000 + (numbers++ % 9000)).padStart(4, '0')}`

async function codeOnlyAccount(challenge = true) {
  const email = `code-${crypto.randomUUID().slice(0, 8)}@example.test`
  const mobileNumber = freshNumber()
  await control().createAccount({ email, password: null, mobileNumber, card: true, challenge })
  return { email, mobileNumber }
}

async function signedUp() {
  const client = new WebClient()
  const email = await client.newUser()
  const userId = String(await env.DB.prepare('select id from users where email = ?').bind(email).first('id'))
  return { client, userId }
}

async function askForCode(client: WebClient, mobileNumber: string, via = 'cloud') {
  return client.post('/settings/platform/code', { mobile_number: mobileNumber, via, _csrf: await client.csrfFrom('/settings') })
}

async function typeCode(client: WebClient, code: string) {
  return client.post('/settings/platform/code/check', { code, accept_risk: 'on', _csrf: await client.csrfFrom('/settings/platform/code') })
}

const connectedCount = async (userId: string) =>
  env.DB.prepare('select count(*) as n from platform_connections where user_id = ?').bind(userId).first('n')

describe('signing in by a code sent by text message', () => {
  it('connects a code-only account: number, code, the email the platform asks for, connected; the steps between kept sealed', async () => {
    const { client, userId } = await signedUp()
    const account = await codeOnlyAccount()
    const sent = await askForCode(client, account.mobileNumber.replace('+1', ''))
    expect(sent.headers.get('Location')).toBe('/settings/platform/code')
    const page = await (await client.get('/settings/platform/code')).text()
    expect(page).toContain(`the number ending in ${account.mobileNumber.slice(-4)}`)
    expect(page).not.toContain(account.mobileNumber)
    // Kept server-side, sealed: neither the number nor the device token is in D1 in clear.
    const row = await env.DB.prepare('select * from platform_sign_ins where user_id = ?').bind(userId).first<Record<string, unknown>>()
    expect(JSON.stringify(row)).not.toContain(account.mobileNumber.slice(2))
    expect(page).not.toContain(String(row?.id))

    const code = await control().lastCode(account.mobileNumber)
    const checked = await typeCode(client, code ?? 'none')
    expect(checked.headers.get('Location')).toBe('/settings/platform/code')
    expect(await (await client.get('/settings/platform/code')).text()).toContain('The platform asks for the email address of this account')
    const answered = await client.post('/settings/platform/code/email', {
      email: account.email,
      _csrf: await client.csrfFrom('/settings/platform/code'),
    })
    expect(answered.headers.get('Location')).toBe('/settings?done=connected')
    expect(await connectedCount(userId)).toBe(1)
    expect(await env.DB.prepare('select count(*) as n from platform_sign_ins where user_id = ?').bind(userId).first('n')).toBe(0)
  })

  it('says a wrong code plainly and lets the diner type it again; a right one then connects', async () => {
    const { client, userId } = await signedUp()
    const account = await codeOnlyAccount(false)
    await askForCode(client, account.mobileNumber)
    const wrong = await typeCode(client, '000000')
    expect(wrong.status).toBe(422)
    const html = await wrong.text()
    expect(html).toContain('That code is not the one the platform sent.')
    expect(html).toContain('Check the text message and type the code again.')
    const right = await typeCode(client, (await control().lastCode(account.mobileNumber)) ?? 'none')
    expect(right.headers.get('Location')).toBe('/settings?done=connected')
    expect(await connectedCount(userId)).toBe(1)
  })

  it('says an expired code plainly and asks for a new one', async () => {
    const { client, userId } = await signedUp()
    const account = await codeOnlyAccount(false)
    await control().setSignInSettings({ codeTtlSeconds: 1 })
    await askForCode(client, account.mobileNumber)
    await new Promise((done) => setTimeout(done, 1_200))
    const late = await typeCode(client, (await control().lastCode(account.mobileNumber)) ?? 'none')
    expect(late.status).toBe(422)
    const html = await late.text()
    expect(html).toContain('That code has expired.')
    expect(html).toContain('Ask for a new code')
    expect(await connectedCount(userId)).toBe(0)
  })

  it('tells a diner whose account has no password to use the code, and one the platform wants a captcha from to connect from their computer', async () => {
    const { client } = await signedUp()
    const account = await codeOnlyAccount(false)
    await control().setSignInSettings({ noPasswordSaysSo: true })
    const password = await client.post('/settings/platform/connect', {
      platform_email: account.email,
      platform_password: 'a guess',
      accept_risk: 'on',
      _csrf: await client.csrfFrom('/settings'),
    })
    expect(password.status).toBe(422)
    expect(await password.text()).toContain('This platform account has no password: it signs in with a code by text message.')

    await control().setSignInSettings({ captcha: true })
    const captcha = await askForCode(client, account.mobileNumber)
    expect(captcha.status).toBe(422)
    const html = await captcha.text()
    expect(html).toContain('The platform wants to check that a person is signing in')
    expect(html).toContain('Connect from your own computer instead')
  })

  it('refuses the cloud sign-in in datacenter mode with the way round it, and remembers it', async () => {
    const { client, userId } = await signedUp()
    const account = await codeOnlyAccount()
    await control().setSignInSettings({ datacenter: { refuse: ['sign_in', 'refresh'] } })
    const refused = await askForCode(client, account.mobileNumber)
    expect(refused.status).toBe(422)
    expect(await refused.text()).toContain('The platform does not let our servers sign you in.')
    expect(await env.DB.prepare('select call from cloud_refusals where user_id = ?').bind(userId).first('call')).toBe('sign_in')
    expect(await control().texts(account.mobileNumber)).toEqual([])
  })

  it('counts parallel tries against one code: never more than five reach the platform', async () => {
    const { client } = await signedUp()
    const account = await codeOnlyAccount(false)
    await control().setSignInSettings({ codeTries: 20 })
    await askForCode(client, account.mobileNumber)
    const csrf = await client.csrfFrom('/settings/platform/code')
    const before = (await control().calls()).mobile ?? 0
    const tries = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        client.post('/settings/platform/code/check', { code: `00000${i}`, accept_risk: 'on', _csrf: csrf }),
      ),
    )
    expect(tries.every((t) => t.status === 422)).toBe(true)
    expect(((await control().calls()).mobile ?? 0) - before).toBeLessThanOrEqual(5)
    // And the sign-in is over: the next try is told to ask for a new code.
    const code = (await control().lastCode(account.mobileNumber)) ?? 'none'
    const after = await client.post('/settings/platform/code/check', { code, accept_risk: 'on', _csrf: csrf })
    expect(await after.text()).toMatch(/one try too many|no longer under way/)
  })
})
