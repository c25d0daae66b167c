// Sign-in by a code texted to the account's phone (docs/platform.md, "Sign-in"; [idx 57928723907],
// "verified against the live API"; variants in [idx 59086060355], [idx 59482914481]):
//   POST /4/auth/mobile {mobile_number, method: "sms", device_type_id, device_token} texts a code;
//   the same endpoint with `code` answers the session, or a challenge {challenge_id, properties}
//   that asks for the account's email (with a `mobile_claim.claim_token`, [idx 59086060355]);
//   POST /4/auth/challenge {challenge_id, em_address, device_type_id, device_token} answers the session.
// The code is tied to the device token that asked for it ([idx 57928723907]). What the sandbox
// adds where nothing is public (a guess each, docs/decisions/platform-account.md): six digits;
// a code lives `codeTtlSeconds` and takes `codeTries` wrong tries; a newer code replaces the older;
// `codeSendsPerWindow` codes a number per CODE_SEND_WINDOW_MS; a challenge lives as long as a code
// and takes as many tries. The texts land on the world's phone (the control API's /phone page).
import type { SignInSettings } from '../schemas'
import { accountByMobile, accountForNewNumber, type SandboxAccount } from './accounts'
import { randomToken } from './schema'

export const CODE_SEND_WINDOW_MS = 10 * 60_000

/** Why a step was refused, for the route to answer in the platform's words. */
export type CodeRefusal =
  | 'too_many_sends'
  | 'captcha'
  | 'no_code'
  | 'wrong_code'
  | 'expired'
  | 'too_many_tries'
  | 'no_challenge'
  | 'wrong_email'

export type CodeCheck =
  | { kind: 'signed_in'; account: SandboxAccount }
  | { kind: 'challenge'; challengeId: string; claimToken: string; firstName: string | null }
  | { kind: 'refused'; why: CodeRefusal }

type CodeRow = { mobile_number: string; code: string; device_token: string; expires_at: number; tries_left: number }
type ChallengeRow = {
  challenge_id: string
  mobile_number: string
  device_token: string
  claim_token: string
  expires_at: number
  tries_left: number
}

function sixDigits(): string {
  const n = crypto.getRandomValues(new Uint32Array(1))[0] ?? 0
  return String(n % 1_000_000).padStart(6, '0')
}

/** Texts a new code to the number for the device; refused when the number had too many, or a captcha is wanted. */
export function sendCode(
  sql: SqlStorage,
  request: { mobileNumber: string; deviceToken: string; captchaToken: string | null },
  settings: SignInSettings,
  now: number,
): { kind: 'sent' } | { kind: 'refused'; why: CodeRefusal } {
  if (settings.captcha && !request.captchaToken) return { kind: 'refused', why: 'captcha' }
  const recent = sql
    .exec<{ n: number }>(
      'SELECT COUNT(*) AS n FROM texts WHERE mobile_number = ? AND sent_at > ?',
      request.mobileNumber,
      now - CODE_SEND_WINDOW_MS,
    )
    .one().n
  if (recent >= settings.codeSendsPerWindow) return { kind: 'refused', why: 'too_many_sends' }
  const code = sixDigits()
  sql.exec(
    'INSERT OR REPLACE INTO codes (mobile_number, code, device_token, expires_at, tries_left) VALUES (?, ?, ?, ?, ?)',
    request.mobileNumber,
    code,
    request.deviceToken,
    now + settings.codeTtlSeconds * 1000,
    settings.codeTries,
  )
  sql.exec(
    'INSERT INTO texts (mobile_number, body, sent_at) VALUES (?, ?, ?)',
    request.mobileNumber,
    `${code} is your Resy verification code. It expires in ${Math.ceil(settings.codeTtlSeconds / 60)} minutes.`,
    now,
  )
  return { kind: 'sent' }
}

/** Checks the code the diner typed: the session, or the challenge for the account's email. */
export function checkCode(
  sql: SqlStorage,
  request: { mobileNumber: string; code: string; deviceToken: string },
  settings: SignInSettings,
  now: number,
): CodeCheck {
  const row = sql.exec<CodeRow>('SELECT * FROM codes WHERE mobile_number = ?', request.mobileNumber).toArray()[0]
  if (!row) return { kind: 'refused', why: 'no_code' }
  if (row.expires_at <= now) return { kind: 'refused', why: 'expired' }
  if (row.tries_left <= 0) return { kind: 'refused', why: 'too_many_tries' }
  // A code asked for by another device is no code for this one.
  if (row.code !== request.code.trim() || row.device_token !== request.deviceToken) {
    sql.exec('UPDATE codes SET tries_left = tries_left - 1 WHERE mobile_number = ?', request.mobileNumber)
    return { kind: 'refused', why: row.tries_left <= 1 ? 'too_many_tries' : 'wrong_code' }
  }
  sql.exec('DELETE FROM codes WHERE mobile_number = ?', request.mobileNumber)
  const account = accountByMobile(sql, request.mobileNumber)
  if (account && !account.challenge) return { kind: 'signed_in', account }
  const challengeId = randomToken()
  const claimToken = randomToken()
  sql.exec(
    'INSERT INTO challenges (challenge_id, mobile_number, device_token, claim_token, expires_at, tries_left) VALUES (?, ?, ?, ?, ?, ?)',
    challengeId,
    request.mobileNumber,
    request.deviceToken,
    claimToken,
    now + settings.codeTtlSeconds * 1000,
    settings.codeTries,
  )
  return { kind: 'challenge', challengeId, claimToken, firstName: account?.firstName ?? null }
}

/** The account's email for the challenge: the session's account. */
export function answerChallenge(
  sql: SqlStorage,
  request: { challengeId: string; email: string; deviceToken: string; claimToken: string | null },
  now: number,
): { kind: 'signed_in'; account: SandboxAccount } | { kind: 'refused'; why: CodeRefusal } {
  const row = sql.exec<ChallengeRow>('SELECT * FROM challenges WHERE challenge_id = ?', request.challengeId).toArray()[0]
  if (!row || row.expires_at <= now || row.device_token !== request.deviceToken) return { kind: 'refused', why: 'no_challenge' }
  // The claim token is optional (one client sends it, the other not); a wrong one is no claim.
  if (request.claimToken !== null && request.claimToken !== row.claim_token) return { kind: 'refused', why: 'no_challenge' }
  if (row.tries_left <= 0) return { kind: 'refused', why: 'too_many_tries' }
  const known = accountByMobile(sql, row.mobile_number)
  const email = request.email.trim().toLowerCase()
  const account = known ? (known.email === email ? known : null) : accountForNewNumber(sql, email, row.mobile_number, now)
  if (!account) {
    sql.exec('UPDATE challenges SET tries_left = tries_left - 1 WHERE challenge_id = ?', request.challengeId)
    return { kind: 'refused', why: row.tries_left <= 1 ? 'too_many_tries' : 'wrong_email' }
  }
  sql.exec('DELETE FROM challenges WHERE challenge_id = ?', request.challengeId)
  return { kind: 'signed_in', account }
}

export interface Text {
  mobileNumber: string
  body: string
  sentAt: number
}

/** The texts the world's phone received, newest first (all numbers, or one). */
export function textsOf(sql: SqlStorage, mobileNumber: string | null): Text[] {
  const rows =
    mobileNumber === null
      ? sql.exec<{ mobile_number: string; body: string; sent_at: number }>('SELECT * FROM texts ORDER BY id DESC LIMIT 100')
      : sql.exec<{ mobile_number: string; body: string; sent_at: number }>(
          'SELECT * FROM texts WHERE mobile_number = ? ORDER BY id DESC LIMIT 100',
          mobileNumber,
        )
  return rows.toArray().map((r) => ({ mobileNumber: r.mobile_number, body: r.body, sentAt: r.sent_at }))
}
