// Sessions, the CDN's cookies, and the booking rules of 2026 on the wire: the real client against
// the sandbox platform (docs/platform.md, "Sessions and refresh", "The CDN", "Venues and search",
// "Booking").
import { describe, expect, it } from 'vitest'
import type { UserCredentials } from '../../src/platform/api'
import { sessionEndOf } from '../../src/platform/session'
import { asUser } from '../helpers/credentials'
import { freshWorld, ownSlot } from './world'

type World = ReturnType<typeof freshWorld>

async function signedIn(world: World, email = 'ada@example.com') {
  const got = await world.platform.login(email, 'pw')
  if (got.kind !== 'ok') throw new Error(`login: ${got.kind}`)
  return got.value
}

/** The sandbox venue with that booking rule. */
async function venueWith(world: World, rule: 'recaptcha' | 'tock' | 'card_on_file') {
  const venue = (await world.control.venues()).find((v) => v.bookingRule === rule)
  if (!venue) throw new Error(`no ${rule} venue in the seed`)
  return venue
}

/** A book token for a table the test owns at the venue. */
async function bookTokenAt(world: World, credentials: UserCredentials, venueId: number) {
  const slot = await ownSlot(world, { venueId })
  const found = await world.platform.findSlots({ venueId, day: slot.day, partySize: 2 })
  const configId = found.kind === 'ok' ? found.value.find((s) => s.time === slot.time)?.configId : undefined
  if (!configId) throw new Error('own slot not offered')
  const details = await world.platform.bookingDetails(credentials, { configId, day: slot.day, partySize: 2 })
  if (details.kind !== 'ok') throw new Error(`details: ${details.kind}`)
  return details.value.bookToken
}

describe('sessions that end', () => {
  it('a password session: the refresh cookie, its 90 days, and the session’s end at the refresh token’s', async () => {
    const session = await signedIn(freshWorld())
    expect(session.refreshVia).toBe('cookie')
    expect(session.refreshExpiresAt).toBeGreaterThan(Date.now() + 89 * 86_400_000)
    expect(sessionEndOf(session)).toBe(session.refreshExpiresAt)
  })

  it('a refresh token given in the body is kept from each answer, so the session renews again and again', async () => {
    const world = freshWorld()
    await world.control.setSignInSettings({ passwordSessionRefresh: 'body' })
    const session = await signedIn(world)
    expect(session).toMatchObject({ refreshVia: 'body', refreshToken: expect.any(String) })
    let credentials = { refreshToken: session.refreshToken ?? '', cdnCookies: session.cdnCookies }
    for (let i = 0; i < 3; i++) {
      const renewed = await world.platform.refresh(credentials)
      if (renewed.kind !== 'ok' || renewed.value.refreshToken === null) throw new Error(`refresh ${i + 1}: ${renewed.kind}`)
      expect(renewed.value.refreshVia).toBe('body')
      expect(renewed.value.refreshToken).not.toBe(credentials.refreshToken)
      expect((await world.platform.checkAccount(renewed.value)).kind).toBe('ok')
      credentials = { refreshToken: renewed.value.refreshToken, cdnCookies: renewed.value.cdnCookies }
    }
  })

  it('sends the refresh token both as the cookie and as the form field', async () => {
    const world = freshWorld()
    const session = await signedIn(world)
    await world.platform.refresh({ refreshToken: session.refreshToken ?? '', cdnCookies: session.cdnCookies })
    const refresh = world.sent.at(-1)
    expect(refresh?.headers.get('Cookie')).toContain(`production_refresh_token=${session.refreshToken}`)
    expect(new URLSearchParams(await refresh?.text()).get('refresh_token')).toBe(session.refreshToken)
  })

  it('a code session without a refresh token ends at its token’s exp', async () => {
    const world = freshWorld()
    await world.control.createAccount({ email: 'ada@example.com', mobileNumber: '+12125550123', password: null, challenge: false })
    const sender = { deviceToken: 'device-1', cdnCookies: {} }
    await world.platform.sendCode('+12125550123', sender)
    const code = await world.control.lastCode('+12125550123')
    const checked = await world.platform.checkCode('+12125550123', code ?? '', sender)
    if (checked.kind !== 'ok' || checked.value.kind !== 'signed_in') throw new Error('expected a session')
    expect(checked.value.session.refreshToken).toBeNull()
    expect(sessionEndOf(checked.value.session)).toBe(checked.value.session.expiresAt)
  })
})

describe('the CDN’s cookies, kept per session and sent back as a browser does', () => {
  it('passes the cookie challenge of a site that wants them on the account’s calls', async () => {
    const world = freshWorld()
    await world.control.setSignInSettings({ cdnCookiesRequired: true })
    const session = await signedIn(world)
    expect(Object.keys(session.cdnCookies).length).toBe(3)
    expect((await world.platform.checkAccount(session)).kind).toBe('ok')
    expect((await world.platform.listReservations(session)).kind).toBe('ok')
    const renewed = await world.platform.refresh({ refreshToken: session.refreshToken ?? '', cdnCookies: session.cdnCookies })
    expect(renewed.kind).toBe('ok')
    // The same token without the session's cookies: what a client that drops them meets.
    expect(await world.platform.checkAccount(asUser(session.authToken))).toEqual({ kind: 'blocked', signal: 'imperva' })
  })

  it('sends each session its own cookies, and keeps a cookie the CDN sets later', async () => {
    const world = freshWorld()
    const a = await signedIn(world, 'ada@example.com')
    const b = await signedIn(world, 'grace@example.com')
    expect(a.cdnCookies).not.toEqual(b.cdnCookies)
    const jar = { ...a.cdnCookies }
    const credentials = { authToken: a.authToken, cdnCookies: jar }
    const session = Object.keys(jar).find((name) => name.startsWith('incap_ses_')) ?? ''
    delete jar[session]
    expect((await world.platform.checkAccount(credentials)).kind).toBe('ok')
    // The CDN set a new session cookie; the jar kept it, and the next call carries it.
    expect(jar[session]).toEqual(expect.any(String))
    await world.platform.listReservations(credentials)
    expect(world.sent.at(-1)?.headers.get('Cookie')).toContain(`${session}=${jar[session]}`)
  })
})

describe('venues the service cannot book, and the card on file', () => {
  it('reads feature_recaptcha and is_tock_inventory from search and venue data', async () => {
    const world = freshWorld()
    const recaptcha = await venueWith(world, 'recaptcha')
    const tock = await venueWith(world, 'tock')
    const hits = await world.platform.searchVenues(recaptcha.name)
    expect(hits).toMatchObject({ kind: 'ok', value: [{ venueId: recaptcha.id, bookingBlocker: 'recaptcha' }] })
    expect(await world.platform.venueDetails(tock.id)).toMatchObject({ kind: 'ok', value: { bookingBlocker: 'tock' } })
    expect(await world.platform.venueDetails(60105)).toMatchObject({ kind: 'ok', value: { bookingBlocker: null } })
  })

  it('is refused at book, once, at a reCAPTCHA venue and at a Tock venue: nothing booked', async () => {
    const world = freshWorld()
    const session = await signedIn(world)
    for (const [rule, reason] of [
      ['recaptcha', 'recaptcha_required'],
      ['tock', 'tock_inventory'],
    ] as const) {
      const venue = await venueWith(world, rule)
      const bookToken = await bookTokenAt(world, session, venue.id)
      expect(await world.platform.book(session, { bookToken, paymentMethodId: null })).toEqual({ kind: 'refused', reason })
    }
    expect((await world.control.calls()).book).toBe(2)
    expect(await world.control.ledger()).toEqual([])
  })

  it('reads a bare 402 to a book without a card as card_on_file_required, never retried; with the card it books', async () => {
    const world = freshWorld()
    const session = await signedIn(world)
    const venue = await venueWith(world, 'card_on_file')
    const bookToken = await bookTokenAt(world, session, venue.id)
    expect(await world.platform.book(session, { bookToken, paymentMethodId: null })).toEqual({
      kind: 'refused',
      reason: 'card_on_file_required',
    })
    expect((await world.control.calls()).book).toBe(1)
    expect(await world.platform.book(session, { bookToken, paymentMethodId: session.paymentMethodId })).toMatchObject({ kind: 'booked' })
  })

  it('waits for a book call as long as public clients saw them take at drops, past the other calls’ timeout', async () => {
    const world = freshWorld({ timeoutMs: 300 })
    const session = await signedIn(world)
    const bookToken = await bookTokenAt(world, session, 60105)
    await world.control.injectFault({ endpoint: 'book', kind: 'slow', hangMs: 1500 })
    expect(await world.platform.book(session, { bookToken, paymentMethodId: null })).toMatchObject({ kind: 'booked' })
  })
})
