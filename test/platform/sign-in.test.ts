// Signing in on the wire: the real client against the sandbox platform (docs/platform.md,
// "Sign-in", "Where calls may come from"): the password on /4 (/3 only on a 404), the code texted
// to the phone with its challenge, every refusal with its reason, and the datacenter mode.
import { describe, expect, it } from 'vitest'
import { codeIn } from '../../sandbox/control-client'
import type { CodeSender, Platform } from '../../src/platform/api'
import { newCodeSender } from '../../src/platform/session'
import { freshWorld } from './world'

type World = ReturnType<typeof freshWorld>

const ADA = { email: 'ada.lovelace@example.com', mobileNumber: '+12125550123' }

/** A code-only account (no password), with the challenge after the code unless told otherwise. */
async function codeOnly(world: World, challenge = true) {
  return world.control.createAccount({ ...ADA, password: null, challenge })
}

const paths = (world: World) => world.sent.map((r) => new URL(r.url).pathname)

/** Sends a code and reads it off the sandbox's phone. */
async function textedCode(world: World, platform: Platform, sender: CodeSender, number = ADA.mobileNumber): Promise<string> {
  expect(await platform.sendCode(number, sender)).toEqual({ kind: 'ok', value: { sent: true } })
  const code = codeIn((await world.control.texts(number))[0])
  if (!code) throw new Error('no code on the phone')
  return code
}

describe('password sign-in', () => {
  it('goes to /4/auth/password, not /3', async () => {
    const world = freshWorld()
    const got = await world.platform.login('ada@example.com', 'pw')
    expect(got).toMatchObject({ kind: 'ok', value: { displayName: 'Ada Guest', paymentMethodId: expect.any(Number) } })
    expect(paths(world)).toEqual(['/4/auth/password'])
  })

  it('signs in where /3/auth/password no longer exists', async () => {
    const world = freshWorld()
    await world.control.setSignInSettings({ passwordPaths: ['/4/auth/password'] })
    expect((await world.platform.login('ada@example.com', 'pw')).kind).toBe('ok')
  })

  it('falls back to /3 only when /4 answers 404', async () => {
    const world = freshWorld()
    await world.control.setSignInSettings({ passwordPaths: ['/3/auth/password'] })
    expect((await world.platform.login('ada@example.com', 'pw')).kind).toBe('ok')
    expect(paths(world)).toEqual(['/4/auth/password', '/3/auth/password'])
  })

  it('refuses a wrong password as wrong_password, without trying /3', async () => {
    const world = freshWorld()
    await world.control.createAccount({ email: 'ada@example.com', password: 'right', card: true })
    expect(await world.platform.login('ada@example.com', 'wrong')).toEqual({ kind: 'refused', reason: 'wrong_password' })
    expect(paths(world)).toEqual(['/4/auth/password'])
  })

  it('refuses a code-only account like a wrong password, or as no_password where the platform says so', async () => {
    const world = freshWorld()
    await codeOnly(world)
    expect(await world.platform.login(ADA.email, 'anything')).toEqual({ kind: 'refused', reason: 'wrong_password' })
    await world.control.setSignInSettings({ noPasswordSaysSo: true })
    expect(await world.platform.login(ADA.email, 'anything')).toEqual({ kind: 'refused', reason: 'no_password' })
  })
})

describe('sign-in by a code texted to the phone', () => {
  it('sends the code, takes it, answers the challenge with the account’s email, and reads the account from /2/user', async () => {
    const world = freshWorld()
    const account = await codeOnly(world)
    const sender = newCodeSender()
    const code = await textedCode(world, world.platform, sender)
    const checked = await world.platform.checkCode(ADA.mobileNumber, code, sender)
    if (checked.kind !== 'ok' || checked.value.kind !== 'challenge') throw new Error(`expected a challenge: ${JSON.stringify(checked)}`)
    expect(checked.value.challenge.claimToken).toEqual(expect.any(String))
    const session = await world.platform.answerChallenge(checked.value.challenge, ADA.email, sender)
    expect(session).toMatchObject({
      kind: 'ok',
      value: { displayName: 'Ada Lovelace', paymentMethodId: account.paymentMethodId, refreshToken: null, refreshVia: null },
    })
    if (session.kind !== 'ok') return
    // No refresh token: the session ends at the token's exp (about 45 days).
    expect(session.value.expiresAt).toBeGreaterThan(Date.now() + 44 * 86_400_000)
    expect((await world.platform.checkAccount(session.value)).kind).toBe('ok')
    const sentForm = async (i: number) => new URLSearchParams(await world.sent[i]?.text())
    expect(Object.fromEntries(await sentForm(0))).toEqual({
      mobile_number: ADA.mobileNumber,
      method: 'sms',
      device_type_id: '3',
      device_token: sender.deviceToken,
    })
    expect(paths(world)).toEqual(['/4/auth/mobile', '/4/auth/mobile', '/4/auth/challenge', '/2/user', '/2/user'])
  })

  it('signs in with the code alone when the platform asks no more', async () => {
    const world = freshWorld()
    await codeOnly(world, false)
    const sender = newCodeSender()
    const code = await textedCode(world, world.platform, sender)
    expect(await world.platform.checkCode(ADA.mobileNumber, code, sender)).toMatchObject({
      kind: 'ok',
      value: { kind: 'signed_in', session: { displayName: 'Ada Lovelace', authToken: expect.any(String) } },
    })
  })

  it('refuses a wrong code, a code asked for by another device, and too many tries', async () => {
    const world = freshWorld()
    await codeOnly(world)
    await world.control.setSignInSettings({ codeTries: 3 })
    const sender = newCodeSender()
    const code = await textedCode(world, world.platform, sender)
    const wrong = code === '000000' ? '111111' : '000000'
    expect(await world.platform.checkCode(ADA.mobileNumber, wrong, sender)).toEqual({ kind: 'refused', reason: 'wrong_code' })
    expect(await world.platform.checkCode(ADA.mobileNumber, code, newCodeSender())).toEqual({ kind: 'refused', reason: 'wrong_code' })
    expect(await world.platform.checkCode(ADA.mobileNumber, wrong, sender)).toEqual({ kind: 'refused', reason: 'too_many_tries' })
    // Spent: even the right code no longer works.
    expect(await world.platform.checkCode(ADA.mobileNumber, code, sender)).toEqual({ kind: 'refused', reason: 'too_many_tries' })
  })

  it('refuses an expired code', async () => {
    const world = freshWorld()
    await codeOnly(world)
    await world.control.setSignInSettings({ codeTtlSeconds: 1 })
    const sender = newCodeSender()
    const code = await textedCode(world, world.platform, sender)
    await scheduler.wait(1100)
    expect(await world.platform.checkCode(ADA.mobileNumber, code, sender)).toEqual({ kind: 'refused', reason: 'code_expired' })
  })

  it('refuses the wrong email at the challenge, and a challenge already answered', async () => {
    const world = freshWorld()
    await codeOnly(world)
    const sender = newCodeSender()
    const code = await textedCode(world, world.platform, sender)
    const checked = await world.platform.checkCode(ADA.mobileNumber, code, sender)
    if (checked.kind !== 'ok' || checked.value.kind !== 'challenge') throw new Error('expected a challenge')
    const { challenge } = checked.value
    expect(await world.platform.answerChallenge(challenge, 'someone.else@example.com', sender)).toEqual({
      kind: 'refused',
      reason: 'wrong_email',
    })
    expect((await world.platform.answerChallenge(challenge, ADA.email, sender)).kind).toBe('ok')
    expect(await world.platform.answerChallenge(challenge, ADA.email, sender)).toEqual({ kind: 'refused', reason: 'code_expired' })
  })

  it('refuses a number it will not text, too many codes, and a send without the captcha it wants', async () => {
    const world = freshWorld()
    expect(await world.platform.sendCode('12345', newCodeSender())).toEqual({ kind: 'refused', reason: 'invalid_number' })
    await world.control.setSignInSettings({ codeSendsPerWindow: 2 })
    const sender = newCodeSender()
    await textedCode(world, world.platform, sender)
    await textedCode(world, world.platform, sender)
    expect(await world.platform.sendCode(ADA.mobileNumber, sender)).toEqual({ kind: 'refused', reason: 'too_many_tries' })
    await world.control.setSignInSettings({ captcha: true })
    expect(await world.platform.sendCode('+13125550100', newCodeSender())).toEqual({ kind: 'refused', reason: 'captcha_required' })
  })

  it('keeps the CDN’s cookies of the first step and sends them back on the next ones, as a browser does', async () => {
    const world = freshWorld()
    await codeOnly(world)
    const sender = newCodeSender()
    const code = await textedCode(world, world.platform, sender)
    expect(Object.keys(sender.cdnCookies)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^visid_incap_/),
        expect.stringMatching(/^incap_ses_/),
        expect.stringMatching(/^nlbi_/),
      ]),
    )
    await world.platform.checkCode(ADA.mobileNumber, code, sender)
    const cookie = world.sent.at(-1)?.headers.get('Cookie') ?? ''
    for (const [name, value] of Object.entries(sender.cdnCookies)) expect(cookie).toContain(`${name}=${value}`)
  })
})

describe('the datacenter mode: sign-in is refused from the cloud, answered from home', () => {
  it('refuses the service’s sign-ins with the CDN’s plain-text 500, answers the same from the home network, and keeps reads working', async () => {
    const world = freshWorld()
    await codeOnly(world)
    await world.control.setSignInSettings({ datacenter: { refuse: ['sign_in', 'refresh'], homeAddresses: ['127.0.0.2'] } })
    expect(await world.platform.login('grace@example.com', 'pw')).toEqual({ kind: 'blocked', signal: 'plain_500' })
    expect(await world.platform.sendCode(ADA.mobileNumber, newCodeSender())).toEqual({ kind: 'blocked', signal: 'plain_500' })
    // Key-only reads go on from the cloud.
    expect((await world.platform.searchVenues('juniper')).kind).toBe('ok')

    const home = world.homeClient()
    const password = await home.login('grace@example.com', 'pw')
    if (password.kind !== 'ok' || !password.value.refreshToken) throw new Error(`home sign-in: ${password.kind}`)
    const sender = newCodeSender()
    const code = await textedCode(world, home, sender)
    const checked = await home.checkCode(ADA.mobileNumber, code, sender)
    if (checked.kind !== 'ok' || checked.value.kind !== 'challenge') throw new Error('expected a challenge')
    expect((await home.answerChallenge(checked.value.challenge, ADA.email, sender)).kind).toBe('ok')

    // Refresh: refused from the cloud, answered at home. The account's other calls work from both.
    const refresh = { refreshToken: password.value.refreshToken, cdnCookies: password.value.cdnCookies }
    expect(await world.platform.refresh(refresh)).toEqual({ kind: 'blocked', signal: 'plain_500' })
    expect((await world.platform.checkAccount(password.value)).kind).toBe('ok')
    expect((await home.refresh(refresh)).kind).toBe('ok')
  })

  it('refuses details and book from the cloud too when set so', async () => {
    const world = freshWorld()
    await world.control.setSignInSettings({
      datacenter: { refuse: ['sign_in', 'refresh', 'details', 'book'], homeAddresses: ['127.0.0.2'] },
    })
    const signedIn = await world.homeClient().login('ada@example.com', 'pw')
    if (signedIn.kind !== 'ok') throw new Error(signedIn.kind)
    const details = await world.platform.bookingDetails(signedIn.value, {
      configId: 'rgs://resy/60105/1/2/2030-01-01/2030-01-01/23:15:00/2/Patio',
      day: '2030-01-01',
      partySize: 2,
    })
    expect(details).toEqual({ kind: 'blocked', signal: 'plain_500' })
    expect(await world.platform.book(signedIn.value, { bookToken: 'bt', paymentMethodId: null })).toEqual({
      kind: 'unknown',
      detail: 'blocked: a plain-text HTTP 500 from the firewall',
    })
  })
})
