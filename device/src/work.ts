// The device's half of a work item: one platform call with the user's own platform token, made
// by the same client as the worker's (src/platform/client.ts). Platform-neutral (no Node APIs),
// so the service's tests can run it in workerd against the sandbox too.
import type { CdnCookies, Outcome, Platform, RefreshVia, UserCredentials } from '../../src/platform/api'
import { cdnCookiesOf } from '../../src/platform/cdn-cookies'
import type { WorkCall, WorkResult } from '../../src/platform/device-protocol'
import { renewalDue, tokenExpiry } from '../../src/platform/session'

/**
 * The browser User-Agent a device sends unless configured otherwise: desktop Chrome on Linux (a
 * laptop, a home server, a Raspberry Pi), so the platform sees the user's own kind of client.
 */
export const DEVICE_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/153.0.0.0 Safari/537.36'

/** The device's sign-in on the platform: kept only on the device. */
export interface DeviceSession {
  authToken: string
  /** The platform's refresh token (absent in files written before renewal): renews the auth token. */
  refreshToken?: string | null
  paymentMethodId: number | null
  displayName: string
  /** When the auth token was obtained (epoch ms; absent in older files): sets how early it is renewed. */
  obtainedAt?: number | null
  /** The CDN's cookies of this sign-in (absent in older files), sent back as a browser does. */
  cdnCookies?: CdnCookies
  /** How the refresh token came, and when it stops working (absent in older files). */
  refreshVia?: RefreshVia | null
  refreshExpiresAt?: number | null
}

/**
 * The device's sign-in as it changes: the auth token is renewed with the refresh token (POST
 * /3/auth/refresh) ahead of its `exp` and whenever the platform rejects it, as the service renews
 * its own, so a booking at a release does not first meet a rejection and the user signs in on the
 * device again only when the refresh is refused. A refresh token works once and the device is one
 * program, so one renewal at a time here is one per sign-in; `onRenewed` keeps the new tokens
 * (the device's file).
 */
export class DeviceSignIn {
  #session: DeviceSession | null
  #renewing: Promise<void> | null = null
  /** The token whose renewal ahead of time was refused: it is used until rejected, not renewed on every call. */
  #refusedAhead: string | null = null

  constructor(
    private readonly platform: Platform,
    session: DeviceSession | null,
    private readonly onRenewed: (session: DeviceSession) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {
    this.#session = session
  }

  get session(): DeviceSession | null {
    return this.#session
  }

  /**
   * The credentials of a call: the auth token and the sign-in's cookie jar, which the call
   * updates in place (as a browser's jar); a changed jar is written back (`onRenewed`).
   */
  async call<T>(make: (credentials: UserCredentials) => Promise<T>): Promise<T | null> {
    const session = this.#session
    if (!session) return null
    const credentials: UserCredentials = { authToken: session.authToken, cdnCookies: cdnCookiesOf(session.cdnCookies ?? {}) }
    const before = JSON.stringify(credentials.cdnCookies)
    const result = await make(credentials)
    if (JSON.stringify(credentials.cdnCookies) !== before && this.#session?.authToken === session.authToken) {
      this.#session = { ...this.#session, cdnCookies: credentials.cdnCookies }
      this.onRenewed(this.#session)
    }
    return result
  }

  /** A new sign-in made on this device (relayed from Tablewatch's page): used from now on. */
  adopt(session: DeviceSession): void {
    this.#session = session
    this.#refusedAhead = null
  }

  /** After `rejected` was refused: renews it (or waits for the renewal under way); true when a newer token is there. */
  async renew(rejected: string): Promise<boolean> {
    if (this.#session && this.#session.authToken === rejected) {
      this.#renewing ??= this.#refresh().finally(() => {
        this.#renewing = null
      })
      await this.#renewing
    }
    return this.#session !== null && this.#session.authToken !== rejected
  }

  /** Renews the token when it is close to its `exp` (platform/session.ts); a refusal leaves it in use. */
  async renewIfDue(): Promise<void> {
    const session = this.#session
    if (!session?.refreshToken || session.authToken === this.#refusedAhead) return
    const token = { expiresAt: tokenExpiry(session.authToken), obtainedAt: session.obtainedAt ?? null }
    if (!renewalDue(token, this.now())) return
    if (!(await this.renew(session.authToken))) this.#refusedAhead = session.authToken
  }

  async #refresh(): Promise<void> {
    const session = this.#session
    if (!session?.refreshToken) return
    const obtainedAt = this.now()
    const got = await this.platform.refresh({ refreshToken: session.refreshToken, cdnCookies: cdnCookiesOf(session.cdnCookies ?? {}) })
    if (got.kind !== 'ok') return
    const { authToken, refreshToken, refreshVia, refreshExpiresAt, cdnCookies } = got.value
    this.#session = { ...session, authToken, refreshToken, refreshVia, refreshExpiresAt, cdnCookies, obtainedAt }
    this.onRenewed(this.#session)
  }
}

/** A read with the device's credentials, made once more with a renewed token when the platform rejected it. */
async function read<T>(signIn: DeviceSignIn, call: (credentials: UserCredentials) => Promise<Outcome<T>>): Promise<Outcome<T>> {
  await signIn.renewIfDue()
  const used = signIn.session?.authToken
  if (used === undefined) return { kind: 'reauth' }
  const first = (await signIn.call(call)) ?? { kind: 'reauth' }
  if (first.kind !== 'reauth' || !(await signIn.renew(used))) return first
  return (await signIn.call(call)) ?? first
}

export async function performCall(platform: Platform, signIn: DeviceSignIn, call: WorkCall): Promise<WorkResult> {
  switch (call.op) {
    case 'find':
      return platform.findSlots(call.query)
    case 'details':
      return read(signIn, (credentials) => platform.bookingDetails(credentials, call.query))
    case 'reservations':
      return read(signIn, (credentials) => platform.listReservations(credentials))
    case 'book': {
      // Exactly one attempt (the client never retries a book); a rejected token is renewed for
      // the next attempt.
      await signIn.renewIfDue()
      const session = signIn.session
      if (!session) return { kind: 'reauth' }
      // The card only where the table holds one (docs/platform.md, "Booking"): sent elsewhere, a fee stated in text may be charged.
      const paymentMethodId = call.card === false ? null : session.paymentMethodId
      const booked = (await signIn.call((credentials) => platform.book(credentials, { bookToken: call.bookToken, paymentMethodId }))) ?? {
        kind: 'reauth',
      }
      if (booked.kind === 'reauth') await signIn.renew(session.authToken)
      return booked
    }
  }
}
