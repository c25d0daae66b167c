// `tablewatch-device login`: signing in to the platform from the user's own machine, by a code
// texted to their phone (the way most accounts sign in, docs/platform.md "Sign-in") or by
// password, with the service's own client (src/platform/client.ts). The session stays on the
// device. Platform-neutral (prompts come in through `Prompter`), so the service's tests run it in
// workerd against the sandbox.
import type { Account, Platform, PlatformSession, SignInOutcome, SignInRefusal } from '../../src/platform/api'
import { mobileNumberOf, newCodeSender } from '../../src/platform/session'
import type { DeviceSession } from './work'

export interface Prompter {
  /** Asks on the terminal; the answer trimmed. */
  ask(question: string): Promise<string>
  say(line: string): void
}

export type SignInMethod =
  | { by: 'code'; mobileNumber: string | null; email: string | null }
  | { by: 'password'; email: string; password: string }

export type DeviceSignInResult = { kind: 'signed_in'; session: DeviceSession } | { kind: 'failed'; message: string }

/** How many times a wrong code or a wrong email may be typed again before giving up. */
const RETYPES = 3

/** What each refusal means to the person at the terminal, and what to do next. */
export const REFUSAL_WORDS: Record<SignInRefusal, string> = {
  invalid_number: 'the platform would not text that number; check it (with the country code, e.g. +1 212 555 0123)',
  wrong_password:
    'the platform did not accept that email and password (if you never set a password, sign in with a code: leave out --password)',
  no_password: 'this account has no password: sign in with a code texted to your phone (leave out --password)',
  wrong_code: 'that code is not right',
  code_expired: 'that code has expired, or the sign-in took too long: run login again for a new code',
  too_many_tries: 'too many tries: wait a few minutes, then run login again',
  captcha_required: 'the platform wants a captcha this program cannot show: sign in at resy.com in a browser once, then try again later',
  wrong_email: 'that email is not the one on the account',
}

/** The words for a sign-in that did not end in a session. */
export function failureWords(got: Exclude<SignInOutcome<unknown>, { kind: 'ok' }>): string {
  switch (got.kind) {
    case 'refused':
      return REFUSAL_WORDS[got.reason]
    case 'blocked':
      return 'the platform refused this network’s sign-in (its firewall answered, not the platform): try again later, or from another network'
    case 'rate_limited':
      return 'the platform asks to slow down: try again in a few minutes'
    default:
      return `the platform is not answering (${got.kind}); try again in a few minutes`
  }
}

function deviceSessionOf(session: Account & PlatformSession, obtainedAt: number): DeviceSession {
  const { authToken, refreshToken, refreshVia, refreshExpiresAt, cdnCookies, paymentMethodId, displayName } = session
  return { authToken, refreshToken, refreshVia, refreshExpiresAt, cdnCookies, paymentMethodId, displayName, obtainedAt }
}

export async function signInOnDevice(
  platform: Platform,
  method: SignInMethod,
  prompt: Prompter,
  now: () => number = Date.now,
): Promise<DeviceSignInResult> {
  const startedAt = now()
  if (method.by === 'password') {
    const got = await platform.login(method.email, method.password)
    return got.kind === 'ok'
      ? { kind: 'signed_in', session: deviceSessionOf(got.value, startedAt) }
      : { kind: 'failed', message: failureWords(got) }
  }

  const typed = method.mobileNumber ?? (await prompt.ask('Mobile number on the platform account (e.g. +1 212 555 0123): '))
  const mobileNumber = mobileNumberOf(typed)
  if (!mobileNumber)
    return { kind: 'failed', message: `"${typed}" is not a phone number (write it with the country code, e.g. +1 212 555 0123)` }
  // One browser for the whole sign-in: the code is tied to its device token.
  const sender = newCodeSender()
  const sent = await platform.sendCode(mobileNumber, sender)
  if (sent.kind !== 'ok') return { kind: 'failed', message: failureWords(sent) }
  prompt.say(`The platform texted a code to ${mobileNumber}.`)

  for (let attempt = 1; ; attempt++) {
    const code = (await prompt.ask('Code from the text message: ')).replace(/\s/g, '')
    const checked = await platform.checkCode(mobileNumber, code, sender)
    if (checked.kind === 'refused' && checked.reason === 'wrong_code' && attempt < RETYPES) {
      prompt.say(`${REFUSAL_WORDS.wrong_code}; try again.`)
      continue
    }
    if (checked.kind !== 'ok') return { kind: 'failed', message: failureWords(checked) }
    if (checked.value.kind === 'signed_in') return { kind: 'signed_in', session: deviceSessionOf(checked.value.session, startedAt) }

    // The platform asks for the account's email to finish ([idx 57928723907]).
    for (let asked = 1; ; asked++) {
      const email = (asked === 1 ? method.email : null) ?? (await prompt.ask('The platform asks for the email on the account: '))
      const answered = await platform.answerChallenge(checked.value.challenge, email, sender)
      if (answered.kind === 'refused' && answered.reason === 'wrong_email' && asked < RETYPES) {
        prompt.say(`${REFUSAL_WORDS.wrong_email}; try again.`)
        continue
      }
      if (answered.kind !== 'ok') return { kind: 'failed', message: failureWords(answered) }
      return { kind: 'signed_in', session: deviceSessionOf(answered.value, startedAt) }
    }
  }
}
