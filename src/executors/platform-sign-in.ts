// Connecting the platform account by a code sent by text message (most accounts have no
// password: docs/platform.md, "Sign-in"), and by password: phone number → "we sent a code" → the
// code → (if the platform asks) the account's email → connected. Each step is made by the service
// or, when the platform refuses the service's network, by the user's paired device
// (platform-sign-in-signers.ts); the steps in between are kept server-side (platform-sign-in-pending.ts). Nothing a
// step takes (the code, the password) is stored or echoed.
import { reserve } from '../db/rate-limits'
import { newReceiverKey } from '../lib/sealed-to-key'
import { mobileNumberOf, newCodeSender } from '../platform/session'
import type { Deps } from '../runtime/deps'
import { type ConnectionStatus, saveSignedIn } from './connection'
import {
  endPending,
  keepPending,
  type PendingSignIn,
  pendingOf,
  type SignInVia,
  sealContext,
  startPending,
  takeTry,
} from './platform-sign-in-pending'
import { type SealTarget, type SignedIn, type SignInProblem, signerOf } from './platform-sign-in-signers'

/** Where a sign-in stands after a step. */
export type SignInStep =
  | { kind: 'code_sent'; numberHint: string; via: SignInVia }
  | { kind: 'challenge'; via: SignInVia }
  | { kind: 'connected'; status: ConnectionStatus; via: SignInVia }
  | { kind: 'problem'; problem: SignInProblem | { kind: 'invalid_number' }; via: SignInVia }

/** Codes a user may ask for in an hour: each is a text message to a phone. */
export const CODES_PER_HOUR = 5

export async function sendSignInCode(deps: Deps, userId: string, input: { mobileNumber: string; via: SignInVia }): Promise<SignInStep> {
  const { via } = input
  const mobileNumber = mobileNumberOf(input.mobileNumber)
  if (!mobileNumber) return { kind: 'problem', problem: { kind: 'invalid_number' }, via }
  const allowed = await reserve(deps.db, { key: `platform-code:${userId}`, limit: CODES_PER_HOUR, windowMs: 3_600_000 }, deps.now)
  if (!allowed.ok) return { kind: 'problem', problem: { kind: 'rate_limited', retryAfterMs: allowed.retryAt - deps.now }, via }
  // The browser this sign-in speaks for: its device token (the code is tied to it) and its CDN cookies, kept for every step.
  const sender = newCodeSender()
  const sent = await signerOf(deps, userId, via).sendCode(mobileNumber, sender)
  if (sent.kind === 'problem') return { kind: 'problem', problem: sent.problem, via }
  const key = via === 'device' ? await newReceiverKey() : null
  const pending = await startPending(deps, userId, via, {
    mobileNumber,
    sender,
    challenge: null,
    receiverKey: key?.privateKey ?? null,
    publicKey: key?.publicKey ?? null,
  })
  return { kind: 'code_sent', numberHint: pending.numberHint, via }
}

/** The sign-in under way, for its page; null when there is none. */
export async function signInUnderWay(deps: Deps, userId: string): Promise<Pick<PendingSignIn, 'step' | 'via' | 'numberHint'> | null> {
  const pending = await pendingOf(deps, userId)
  return pending ? { step: pending.step, via: pending.via, numberHint: pending.numberHint } : null
}

export async function checkSignInCode(deps: Deps, userId: string, input: { code: string }): Promise<SignInStep> {
  const pending = await pendingOf(deps, userId)
  if (pending?.step !== 'code_sent') return { kind: 'problem', problem: { kind: 'expired' }, via: pending?.via ?? 'cloud' }
  const { via } = pending
  if (!(await takeTry(deps, pending))) return ended(deps, pending, { kind: 'tries_used' })
  const code = input.code.replace(/\s/g, '')
  const got = await signerOf(deps, userId, via).checkCode(pending.mobileNumber, code, pending.sender, sealTarget(pending))
  if (got.kind === 'problem') return afterProblem(deps, pending, got.problem)
  if (got.value.kind === 'challenge') {
    await keepPending(deps, pending, got.value.challenge)
    return { kind: 'challenge', via }
  }
  return connected(deps, pending, got.value.session)
}

export async function answerSignInChallenge(deps: Deps, userId: string, input: { email: string }): Promise<SignInStep> {
  const pending = await pendingOf(deps, userId)
  if (pending?.step !== 'challenge' || !pending.challenge)
    return { kind: 'problem', problem: { kind: 'expired' }, via: pending?.via ?? 'cloud' }
  if (!(await takeTry(deps, pending))) return ended(deps, pending, { kind: 'tries_used' })
  const signer = signerOf(deps, userId, pending.via)
  const got = await signer.answerChallenge(pending.challenge, input.email.trim(), pending.sender, sealTarget(pending))
  if (got.kind === 'problem') return afterProblem(deps, pending, got.problem)
  return connected(deps, pending, got.value)
}

/** Password sign-in, by the service or by the paired device (its session sealed to a key made for this one call). */
export async function signInWithPassword(
  deps: Deps,
  userId: string,
  input: { email: string; password: string; via: SignInVia },
): Promise<SignInStep> {
  const { via } = input
  const key = await newReceiverKey()
  const seal = { publicKey: key.publicKey, privateKey: key.privateKey, context: `platform-password ${userId} ${crypto.randomUUID()}` }
  const got = await signerOf(deps, userId, via).password(input.email, input.password, seal)
  if (got.kind === 'problem') return { kind: 'problem', problem: got.problem, via }
  return { kind: 'connected', status: await saveSignedIn(deps, userId, got.value), via }
}

export async function cancelSignIn(deps: Deps, userId: string): Promise<void> {
  const pending = await pendingOf(deps, userId)
  if (pending) await endPending(deps, pending)
}

function sealTarget(pending: PendingSignIn): SealTarget {
  // Cloud sign-ins have no key: their session never travels sealed (the service made the call).
  return {
    publicKey: pending.publicKey ?? { x: '', y: '' },
    privateKey: pending.receiverKey ?? { kty: 'EC' },
    context: sealContext(pending),
  }
}

async function connected(deps: Deps, pending: PendingSignIn, session: SignedIn): Promise<SignInStep> {
  await endPending(deps, pending)
  return { kind: 'connected', status: await saveSignedIn(deps, pending.userId, session), via: pending.via }
}

/**
 * A wrong code or email may be tried again (within the tries), and so may a step that got no
 * answer; an expired code, too many tries or any other refusal end the sign-in.
 */
async function afterProblem(deps: Deps, pending: PendingSignIn, problem: SignInProblem): Promise<SignInStep> {
  const mistyped = problem.kind === 'refused' && (problem.reason === 'wrong_code' || problem.reason === 'wrong_email')
  if (mistyped || problem.kind === 'device_silent' || problem.kind === 'unavailable' || problem.kind === 'rate_limited') {
    await keepPending(deps, pending) // the cookies the refusal set
    return { kind: 'problem', problem, via: pending.via }
  }
  return ended(deps, pending, problem)
}

async function ended(deps: Deps, pending: PendingSignIn, problem: SignInProblem): Promise<SignInStep> {
  await endPending(deps, pending)
  return { kind: 'problem', problem, via: pending.via }
}
