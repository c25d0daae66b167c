// Who makes a platform sign-in's calls: the service from its own network ('cloud'), or the
// user's paired device from theirs ('device', relaying the steps the diner types on Tablewatch's
// page: src/platform/sign-in-relay.ts). Both answer in the same words, so the flows
// (platform-sign-in.ts) never ask which one they talk to. The cloud's CDN refusals are remembered
// (cloud-refusals.ts); a device's session arrives sealed to the sign-in's key and is opened here.
import { openSealedToKey, type PrivateJwk } from '../lib/sealed-to-key'
import type { Account, CodeChallenge, CodeSender, PlatformSession, SignInOutcome, SignInRefusal } from '../platform/api'
import { type RelayAnswer, RelayedSession, type RelayStep } from '../platform/sign-in-relay'
import { type Deps, deviceObject } from '../runtime/deps'
import { cloudAnswerOf, noteCloudAnswer } from './cloud-refusals'
import type { SignInVia } from './platform-sign-in-pending'

export type SignedIn = Account & PlatformSession

/** Why a step did not go on; platform-sign-in-words.ts says each to the diner, with what to do next. */
export type SignInProblem =
  /** The platform's own refusal: a wrong code or password, an expired code, a captcha … */
  | { kind: 'refused'; reason: SignInRefusal }
  /** The CDN refused the service's network: the device can sign in instead. */
  | { kind: 'cloud_refused' }
  /** The CDN refused the device's network too. */
  | { kind: 'device_refused' }
  /** No connected device can make a sign-in, or the one that could did not answer in time. */
  | { kind: 'no_device' }
  | { kind: 'device_silent' }
  /** No sign-in under way: it expired, ended, or was replaced by a newer one. */
  | { kind: 'expired' }
  /** This sign-in used its tries; a new code is needed. */
  | { kind: 'tries_used' }
  /** The platform (or our cap on codes) says to wait: the diner's own limit, `retryAfterMs` when known. */
  | { kind: 'rate_limited'; retryAfterMs: number | null }
  /** The device's session did not open under this sign-in's key: an answer for another sign-in. */
  | { kind: 'answer_not_for_this_sign_in' }
  | { kind: 'unavailable' }

export type Said<T> = { kind: 'ok'; value: T } | { kind: 'problem'; problem: SignInProblem }

export type CodeAnswer = { kind: 'signed_in'; session: SignedIn } | { kind: 'challenge'; challenge: CodeChallenge }

/** Where a device seals the session it gets, and the private key that opens it here. */
export interface SealTarget {
  publicKey: { x: string; y: string }
  privateKey: PrivateJwk
  context: string
}

/**
 * The calls of a sign-in. `sender` is the sign-in's browser: the same device token on every step
 * (the code is tied to it); the cloud's calls update its CDN cookies in place, a device keeps its own.
 */
export interface Signer {
  readonly via: SignInVia
  sendCode(mobileNumber: string, sender: CodeSender): Promise<Said<null>>
  checkCode(mobileNumber: string, code: string, sender: CodeSender, seal: SealTarget): Promise<Said<CodeAnswer>>
  answerChallenge(challenge: CodeChallenge, email: string, sender: CodeSender, seal: SealTarget): Promise<Said<SignedIn>>
  password(email: string, password: string, seal: SealTarget): Promise<Said<SignedIn>>
}

const problem = <T>(p: SignInProblem): Said<T> => ({ kind: 'problem', problem: p })

export function cloudSigner(deps: Deps, userId: string): Signer {
  /** The platform's answer in the flows' words; a CDN refusal is remembered for the user. */
  async function said<T>(got: SignInOutcome<T>, rejected: SignInRefusal): Promise<Said<T>> {
    await noteCloudAnswer(deps, userId, 'sign_in', got.kind === 'refused' ? { kind: 'answered' } : cloudAnswerOf(got))
    switch (got.kind) {
      case 'ok':
        return { kind: 'ok', value: got.value }
      case 'refused':
        return problem({ kind: 'refused', reason: got.reason })
      case 'reauth':
        return problem({ kind: 'refused', reason: rejected })
      case 'blocked':
        return problem({ kind: 'cloud_refused' })
      case 'rate_limited':
        return problem({ kind: 'rate_limited', retryAfterMs: got.retryAfterMs })
      case 'not_found':
      case 'operator_fault':
      case 'unavailable':
        return problem({ kind: 'unavailable' })
    }
  }
  return {
    via: 'cloud',
    sendCode: async (mobileNumber, sender) => {
      const got = await said(await deps.platform.sendCode(mobileNumber, sender), 'wrong_code')
      return got.kind === 'ok' ? { kind: 'ok', value: null } : got
    },
    checkCode: (mobileNumber, code, sender) => deps.platform.checkCode(mobileNumber, code, sender).then((got) => said(got, 'wrong_code')),
    answerChallenge: (challenge, email, sender) =>
      deps.platform.answerChallenge(challenge, email, sender).then((got) => said(got, 'wrong_email')),
    password: (email, password) => deps.platform.login(email, password).then((got) => said(got, 'wrong_password')),
  }
}

export function deviceSigner(deps: Deps, userId: string): Signer {
  const device = deviceObject(deps.env, userId)

  async function relay(step: RelayStep): Promise<RelayAnswer | SignInProblem> {
    const status = await device.status()
    if (!status.canSignIn) return { kind: 'no_device' }
    const answer = await device.relaySignIn(`sign-in:${crypto.randomUUID()}`, step)
    return answer ?? { kind: 'device_silent' }
  }

  /** A relayed answer in the flows' words; a session is opened with the sign-in's private key. */
  async function said(answer: RelayAnswer | SignInProblem, seal: SealTarget | null): Promise<Said<CodeAnswer | null>> {
    switch (answer.kind) {
      case 'sent':
        return { kind: 'ok', value: null }
      case 'challenge':
        return { kind: 'ok', value: { kind: 'challenge', challenge: answer.challenge } }
      case 'signed_in': {
        const session = seal ? await opened(answer.session, seal) : null
        return session ? { kind: 'ok', value: { kind: 'signed_in', session } } : problem({ kind: 'answer_not_for_this_sign_in' })
      }
      case 'refused':
        return problem({ kind: 'refused', reason: answer.reason })
      case 'blocked':
        return problem({ kind: 'device_refused' })
      case 'rate_limited':
        return problem({ kind: 'rate_limited', retryAfterMs: answer.retryAfterMs })
      case 'unavailable':
        return problem({ kind: 'unavailable' })
      default:
        return problem(answer)
    }
  }

  const sealTo = (seal: SealTarget) => ({ key: seal.publicKey, context: seal.context })
  const session = (got: Said<CodeAnswer | null>): Said<SignedIn> =>
    got.kind === 'problem'
      ? got
      : got.value?.kind === 'signed_in'
        ? { kind: 'ok', value: got.value.session }
        : problem({ kind: 'unavailable' })

  return {
    via: 'device',
    async sendCode(mobileNumber, { deviceToken }) {
      const got = await said(await relay({ step: 'send_code', mobileNumber, deviceToken }), null)
      return got.kind === 'ok' ? { kind: 'ok', value: null } : got
    },
    async checkCode(mobileNumber, code, { deviceToken }, seal) {
      const got = await said(await relay({ step: 'check_code', mobileNumber, code, deviceToken, sealTo: sealTo(seal) }), seal)
      return got.kind === 'problem' ? got : got.value ? { kind: 'ok', value: got.value } : problem({ kind: 'unavailable' })
    },
    async answerChallenge(challenge, email, { deviceToken }, seal) {
      return session(await said(await relay({ step: 'answer_challenge', challenge, email, deviceToken, sealTo: sealTo(seal) }), seal))
    },
    async password(email, password, seal) {
      return session(await said(await relay({ step: 'password', email, password, sealTo: sealTo(seal) }), seal))
    },
  }
}

/** The device's sealed session, opened and checked; null when it does not open for this sign-in. */
async function opened(sealed: Extract<RelayAnswer, { kind: 'signed_in' }>['session'], seal: SealTarget): Promise<SignedIn | null> {
  try {
    const parsed = RelayedSession.safeParse(JSON.parse(await openSealedToKey(seal.privateKey, sealed, seal.context)))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

export const signerOf = (deps: Deps, userId: string, via: SignInVia): Signer =>
  via === 'device' ? deviceSigner(deps, userId) : cloudSigner(deps, userId)
