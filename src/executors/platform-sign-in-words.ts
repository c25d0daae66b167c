// What the diner is told when a sign-in step does not go on: one plain sentence of what happened
// and one of what to do next, the same on the settings page and in the JSON API. Never the
// platform's own words, a status code or a secret.
import type { SignInProblem } from './platform-sign-in-signers'

export interface SignInWords {
  /** A stable identifier for the JSON API (the contract's error `code`). */
  code: string
  said: string
  next: string
  /** What the page offers: sign in again from the start, from the paired device, or try the same step again. */
  offer: 'start_over' | 'device' | 'again' | 'code_instead'
}

/** The exact sentence the page shows when the platform refuses the service's network. */
export const CLOUD_REFUSED = 'The platform does not let our servers sign you in.'

export function signInWords(problem: SignInProblem | { kind: 'invalid_number' }): SignInWords {
  switch (problem.kind) {
    case 'invalid_number':
      return {
        code: 'invalid_mobile_number',
        said: 'That does not look like a mobile number.',
        next: 'Type the number of the phone your platform account uses, with its country code (for example +1 212 555 0123).',
        offer: 'again',
      }
    case 'refused':
      return refusalWords[problem.reason]
    case 'cloud_refused':
      return {
        code: 'platform_refuses_cloud',
        said: CLOUD_REFUSED,
        next: 'Connect from your own computer instead: your paired device makes the sign-in from your network, and you type the code here as before.',
        offer: 'device',
      }
    case 'device_refused':
      return {
        code: 'platform_refuses_device',
        said: 'The platform refused the sign-in from your computer too.',
        next: 'Wait an hour and try again, or sign in once in the platform’s own app or site on that computer first.',
        offer: 'start_over',
      }
    case 'no_device':
      return {
        code: 'device_not_connected',
        said: 'No paired device of yours is connected and able to sign in right now.',
        next: 'Start “tablewatch-device run” on your computer (pair it under Paired devices first if you have not), then try again.',
        offer: 'device',
      }
    case 'device_silent':
      return {
        code: 'device_did_not_answer',
        said: 'Your computer did not answer in time.',
        next: 'Check that “tablewatch-device run” is still running there, then try again.',
        offer: 'again',
      }
    case 'expired':
      return {
        code: 'sign_in_expired',
        said: 'This sign-in is no longer under way (codes can be used for 10 minutes).',
        next: 'Ask for a new code.',
        offer: 'start_over',
      }
    case 'tries_used':
      return {
        code: 'too_many_tries',
        said: 'That was one try too many for this code.',
        next: 'Ask for a new code and type it carefully.',
        offer: 'start_over',
      }
    case 'rate_limited':
      return {
        code: 'rate_limited',
        said: 'Too many sign-in attempts in a short time.',
        next:
          problem.retryAfterMs === null
            ? 'Wait a few minutes, then try again.'
            : `Wait ${minutesOf(problem.retryAfterMs)}, then try again.`,
        offer: 'start_over',
      }
    case 'answer_not_for_this_sign_in':
      return {
        code: 'device_answer_not_for_this_sign_in',
        said: 'The answer from your computer was not for this sign-in (it may have been for an earlier one).',
        next: 'Ask for a new code, with “tablewatch-device run” running on that computer.',
        offer: 'start_over',
      }
    case 'unavailable':
      return {
        code: 'platform_unavailable',
        said: 'The reservation platform is not answering right now.',
        next: 'Try again in a few minutes.',
        offer: 'again',
      }
  }
}

/** Whole minutes, at least one, for a wait the diner is told about. */
function minutesOf(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000))
  return `${minutes} minute${minutes === 1 ? '' : 's'}`
}

const refusalWords: Record<Extract<SignInProblem, { kind: 'refused' }>['reason'], SignInWords> = {
  invalid_number: {
    code: 'invalid_mobile_number',
    said: 'The platform would not send a text message to that number.',
    next: 'Check the number (the one of the phone your platform account uses, with its country code) and try again.',
    offer: 'again',
  },
  wrong_code: {
    code: 'wrong_code',
    said: 'That code is not the one the platform sent.',
    next: 'Check the text message and type the code again.',
    offer: 'again',
  },
  code_expired: {
    code: 'code_expired',
    said: 'That code has expired.',
    next: 'Ask for a new code and type it within a few minutes.',
    offer: 'start_over',
  },
  too_many_tries: {
    code: 'too_many_tries',
    said: 'The platform stopped accepting codes for this sign-in after too many tries.',
    next: 'Wait a few minutes, then ask for a new code.',
    offer: 'start_over',
  },
  wrong_password: {
    code: 'platform_login_failed',
    said: 'The platform did not accept that email and password.',
    next: 'Check them and try again, or sign in with a code by text message instead.',
    offer: 'again',
  },
  wrong_email: {
    code: 'wrong_email',
    said: 'That email is not the one of this platform account.',
    next: 'Type the email address the platform account uses (its receipts and confirmations go there).',
    offer: 'again',
  },
  no_password: {
    code: 'no_password',
    said: 'This platform account has no password: it signs in with a code by text message.',
    next: 'Use “Text me a code” above with the account’s mobile number.',
    offer: 'code_instead',
  },
  captcha_required: {
    code: 'captcha_required',
    said: 'The platform wants to check that a person is signing in, which it does only in its own app or site.',
    next: 'Connect from your own computer instead, or wait an hour and try again.',
    offer: 'device',
  },
}
