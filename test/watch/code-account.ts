// A diner whose platform account has no password: it signs in by a code texted to its phone
// (the sandbox's code-only account), and such a sign-in hands out no refresh token, so the session
// ends at its token's `exp` (docs/platform.md, "Sign-in", "Sessions and refresh"). The code is read
// from the sandbox's phone; the session is kept as every sign-in keeps it (connectPlatform's path).
import { expect } from 'vitest'
import { saveConnection } from '../../src/db/connections'
import { sealedSession } from '../../src/executors/platform-session'
import { newCodeSender } from '../../src/platform/session'
import type { Deps } from '../../src/runtime/deps'
import { wakeRequestsOf } from '../../src/runtime/open-requests'
import { control } from './world'

export interface CodeAccount {
  email: string
  mobileNumber: string
}

let numbers = 0

/** A code-only account on the sandbox platform, with a card on file. */
export async function codeOnlyAccount(userId: string): Promise<CodeAccount> {
  const mobileNumber = `+1212555${String(1000 + (++numbers % 9000)).padStart(4, '0')}`
  const email = `code-${userId}@example.test`
  await control().createAccount({ email, mobileNumber, password: null, challenge: true })
  return { email, mobileNumber }
}

/** Signs in by text code (the code, then the email the challenge asks for) and keeps the session, waking the user's requests. */
export async function connectByCode(deps: Deps, userId: string, account: CodeAccount): Promise<void> {
  const sender = newCodeSender()
  expect((await deps.platform.sendCode(account.mobileNumber, sender)).kind).toBe('ok')
  const code = await control().lastCode(account.mobileNumber)
  if (!code) throw new Error('no code was texted')
  const verdict = await deps.platform.checkCode(account.mobileNumber, code, sender)
  if (verdict.kind !== 'ok') throw new Error(`the code was refused: ${verdict.kind}`)
  const signedIn =
    verdict.value.kind === 'signed_in'
      ? verdict.value.session
      : await deps.platform.answerChallenge(verdict.value.challenge, account.email, sender).then((answer) => {
          if (answer.kind !== 'ok') throw new Error(`the challenge was refused: ${answer.kind}`)
          return answer.value
        })
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
