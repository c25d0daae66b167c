// The device's half of a sign-in it makes for its user (src/platform/sign-in-relay.ts): each step
// the service relays (the code the diner typed on Tablewatch's page, or their password) is one call
// of the platform client from this machine's network. The device is the browser that sign-in
// speaks for: it keeps that sign-in's CDN cookies between the steps, in memory, by the device
// token the service named it with. The session it gets is sealed to the sign-in's key before it
// leaves, and kept here too (`onSignedIn`), as `tablewatch-device login` keeps one, so the user may
// book from this device. It also refreshes the service's session when the platform refuses the
// service's own refresh: one refresh call from this network, the new session sealed back the same
// way. Platform-neutral (no Node APIs), so the service's tests can run it in workerd.
import { sealToKey } from '../../src/lib/sealed-to-key'
import type { Account, CodeSender, Platform, PlatformSession, SignInOutcome, SignInRefusal } from '../../src/platform/api'
import type { RelayAnswer, RelayedRefresh, RelayedSession, RelayStep } from '../../src/platform/sign-in-relay'

/** Sign-ins left half-way are forgotten after this long (a code is good for minutes). */
const SENDER_TTL_MS = 15 * 60 * 1000

export class SignInRelay {
  #senders = new Map<string, { sender: CodeSender; at: number }>()

  constructor(
    private readonly platform: Platform,
    private readonly onSignedIn: (session: Account & PlatformSession) => void,
    private readonly now: () => number = Date.now,
    /** A session this device refreshed for the service (`refreshed` replaced `refreshToken`): the device keeps it if it held that one. */
    private readonly onRefreshed: (refreshToken: string, session: PlatformSession) => void = () => undefined,
  ) {}

  async answer(step: RelayStep): Promise<RelayAnswer> {
    switch (step.step) {
      case 'send_code': {
        const got = await this.platform.sendCode(step.mobileNumber, this.#sender(step.deviceToken))
        return got.kind === 'ok' ? { kind: 'sent' } : failed(got, 'wrong_code')
      }
      case 'check_code': {
        const got = await this.platform.checkCode(step.mobileNumber, step.code, this.#sender(step.deviceToken))
        if (got.kind !== 'ok') return failed(got, 'wrong_code')
        if (got.value.kind === 'challenge') return { kind: 'challenge', challenge: got.value.challenge }
        this.#senders.delete(step.deviceToken)
        return this.#signedIn(got.value.session, step.sealTo)
      }
      case 'answer_challenge': {
        const got = await this.platform.answerChallenge(step.challenge, step.email, this.#sender(step.deviceToken))
        if (got.kind !== 'ok') return failed(got, 'wrong_email')
        this.#senders.delete(step.deviceToken)
        return this.#signedIn(got.value, step.sealTo)
      }
      case 'password': {
        const got = await this.platform.login(step.email, step.password)
        return got.kind === 'ok' ? this.#signedIn(got.value, step.sealTo) : failed(got, 'wrong_password')
      }
      case 'refresh': {
        // One attempt, never repeated: a refresh token may work only once.
        const got = await this.platform.refresh({ refreshToken: step.refreshToken, cdnCookies: { ...step.cdnCookies } })
        if (got.kind === 'reauth') return { kind: 'rejected' }
        if (got.kind !== 'ok') return failed(got, 'wrong_password')
        this.onRefreshed(step.refreshToken, got.value)
        const { authToken, refreshToken, refreshVia, refreshExpiresAt, expiresAt, cdnCookies } = got.value
        const relayed: RelayedRefresh = { authToken, refreshToken, refreshVia, refreshExpiresAt, expiresAt, cdnCookies }
        return { kind: 'refreshed', session: await sealToKey(step.sealTo.key, JSON.stringify(relayed), step.sealTo.context) }
      }
    }
  }

  /** The sign-in's browser, the same on every step of it. */
  #sender(deviceToken: string): CodeSender {
    const now = this.now()
    for (const [token, kept] of this.#senders) if (now - kept.at > SENDER_TTL_MS) this.#senders.delete(token)
    const kept = this.#senders.get(deviceToken) ?? { sender: { deviceToken, cdnCookies: {} }, at: now }
    this.#senders.set(deviceToken, kept)
    return kept.sender
  }

  async #signedIn(session: Account & PlatformSession, sealTo: { key: { x: string; y: string }; context: string }): Promise<RelayAnswer> {
    this.onSignedIn(session)
    const relayed: RelayedSession = {
      authToken: session.authToken,
      refreshToken: session.refreshToken,
      refreshVia: session.refreshVia,
      refreshExpiresAt: session.refreshExpiresAt,
      expiresAt: session.expiresAt,
      cdnCookies: session.cdnCookies,
      displayName: session.displayName,
      paymentMethodId: session.paymentMethodId,
    }
    return { kind: 'signed_in', session: await sealToKey(sealTo.key, JSON.stringify(relayed), sealTo.context) }
  }
}

/** Anything but a session, in the relay's words (never the platform's own text). */
function failed(got: Exclude<SignInOutcome<unknown>, { kind: 'ok' }>, rejected: SignInRefusal): RelayAnswer {
  switch (got.kind) {
    case 'refused':
      return { kind: 'refused', reason: got.reason }
    case 'blocked':
      return { kind: 'blocked', signal: got.signal }
    case 'rate_limited':
      return { kind: 'rate_limited', retryAfterMs: got.retryAfterMs }
    case 'reauth':
      return { kind: 'refused', reason: rejected }
    default:
      return { kind: 'unavailable', detail: got.kind }
  }
}
