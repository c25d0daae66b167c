// A code-only account's sign-in as the service makes it (docs/platform.md, "Sign-in"): the
// number, the code read off the sandbox's phone, the account's email when the challenge asks for
// it. Such a sign-in may hand out no refresh token (the sandbox's default), so its session ends at
// its token's `exp`. The session is kept as every sign-in keeps it (connectPlatform's path), and the
// user's open requests are woken, as a reconnect wakes them.
import type { SandboxControl } from '../../sandbox/control-client'
import { saveConnection } from '../../src/db/connections'
import { sealedSession } from '../../src/executors/platform-session'
import type { Account, PlatformSession } from '../../src/platform/api'
import { newCodeSender } from '../../src/platform/session'
import type { Deps } from '../../src/runtime/deps'
import { wakeRequestsOf } from '../../src/runtime/open-requests'

export interface CodeAccount {
  email: string
  mobileNumber: string
}

/** Signs in by text code through the service's platform client; throws on any refusal. */
async function signInByCode(deps: Deps, control: SandboxControl, account: CodeAccount): Promise<Account & PlatformSession> {
  const sender = newCodeSender()
  const sent = await deps.platform.sendCode(account.mobileNumber, sender)
  if (sent.kind !== 'ok') throw new Error(`the code was not sent: ${JSON.stringify(sent)}`)
  const code = await control.lastCode(account.mobileNumber)
  if (!code) throw new Error('no code was texted')
  const verdict = await deps.platform.checkCode(account.mobileNumber, code, sender)
  if (verdict.kind !== 'ok') throw new Error(`the code was refused: ${JSON.stringify(verdict)}`)
  if (verdict.value.kind === 'signed_in') return verdict.value.session
  const answer = await deps.platform.answerChallenge(verdict.value.challenge, account.email, sender)
  if (answer.kind !== 'ok') throw new Error(`the challenge was refused: ${JSON.stringify(answer)}`)
  return answer.value
}

/** Signs in by code and keeps the session as the user's connection, waking their requests. */
export async function connectByCode(deps: Deps, control: SandboxControl, userId: string, account: CodeAccount): Promise<void> {
  const signedIn = await signInByCode(deps, control, account)
  const now = Date.now()
  await saveConnection(deps.db, {
    userId,
    ...(await sealedSession(deps.env.PLATFORM_TOKEN_KEY, userId, signedIn, now)),
    displayName: signedIn.displayName,
    paymentMethodId: signedIn.paymentMethodId,
    state: 'ok',
    connectedAt: now,
    checkedAt: now,
  })
  await wakeRequestsOf({ ...deps, now }, userId)
}
