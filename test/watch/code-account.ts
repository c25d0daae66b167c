// A diner whose platform account has no password: it signs in by a code texted to its phone (the
// sandbox's code-only account), and the sign-in hands out no refresh token (test/helpers/code-sign-in.ts).

import type { Deps } from '../../src/runtime/deps'
import { type CodeAccount, connectByCode as signInAndKeep } from '../helpers/code-sign-in'
import { control } from './world'

export type { CodeAccount }

let numbers = 0

/** A code-only account on the sandbox platform, with a card on file. */
export async function codeOnlyAccount(userId: string): Promise<CodeAccount> {
  const mobileNumber = `+1212555${String(1000 + (++numbers % 9000)).padStart(4, '0')}`
  const email = `code-${userId}@example.test`
  await control().createAccount({ email, mobileNumber, password: null, challenge: true })
  return { email, mobileNumber }
}

/** Signs in by text code and keeps the session, waking the user's requests. */
export const connectByCode = (deps: Deps, userId: string, account: CodeAccount) => signInAndKeep(deps, control(), userId, account)
