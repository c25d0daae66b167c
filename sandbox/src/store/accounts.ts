// Sandbox accounts. Signing in with a password makes an account for an email the world does not
// know (any non-empty password then works, as `npm start` invites); the control API makes accounts
// with a set password, or none at all: those sign in only by a code texted to their number
// (docs/platform.md, "Sign-in"; store/codes.ts). An email containing "nocard" has no payment
// method. Each sign-in mints new tokens (tokens.ts); invalidating drops all of them.
import { type AccountInput, accountSchema } from '../schemas'
import { seedHistory } from './history'
import { dropTokens, emailOfToken, type IssuedTokens, issueTokens, type RefreshVia, spendRefreshToken, viaOfRefreshToken } from './tokens'

export interface SandboxAccount {
  email: string
  userId: number
  firstName: string
  lastName: string
  paymentMethodId: number | null
  mobileNumber: string | null
  /** False: the account never set a password (`has_set_password: 0`, [idx 57928723907]). */
  hasPassword: boolean
  /** A right code is followed by the challenge asking for the account's email. */
  challenge: boolean
}

type AccountRow = {
  email: string
  user_id: number
  first_name: string
  last_name: string
  payment_method_id: number | null
  mobile_number: string | null
  has_password: number
  password_hash: string | null
  challenge: number
}

const accountOf = (r: AccountRow): SandboxAccount => ({
  email: r.email,
  userId: r.user_id,
  firstName: r.first_name,
  lastName: r.last_name,
  paymentMethodId: r.payment_method_id,
  mobileNumber: r.mobile_number,
  hasPassword: r.has_password === 1,
  challenge: r.challenge === 1,
})

const capitalised = (w: string) => w.charAt(0).toUpperCase() + w.slice(1)

/** "ada.lovelace@example.com" → Ada Lovelace; a one-word local part gets "Guest" as last name. */
function namesOf(email: string): [string, string] {
  const words = (email.split('@')[0] ?? '').split(/[._+-]+/).filter((w) => /^[a-z]/i.test(w))
  return [capitalised(words[0] ?? 'Sandbox'), capitalised(words[1] ?? 'Guest')]
}

const normalised = (email: string) => email.trim().toLowerCase()

async function hashOfPassword(email: string, password: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${email}\n${password}`))
  return btoa(String.fromCharCode(...new Uint8Array(digest)))
}

function rowOf(sql: SqlStorage, email: string): AccountRow | undefined {
  return sql.exec<AccountRow>('SELECT * FROM accounts WHERE email = ?', email).toArray()[0]
}

interface NewAccount {
  email: string
  card: boolean
  mobileNumber: string | null
  hasPassword: boolean
  passwordHash: string | null
  challenge: boolean
}

function insertAccount(sql: SqlStorage, a: NewAccount, now: number): SandboxAccount {
  const next = sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM accounts').one().n + 1
  const [first, last] = namesOf(a.email)
  const userId = 4_100_000 + next
  const paymentMethodId = a.card && !a.email.includes('nocard') ? 7_200_000 + next : null
  sql.exec(
    `INSERT INTO accounts (email, user_id, first_name, last_name, payment_method_id, mobile_number, has_password, password_hash, challenge)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    a.email,
    userId,
    first,
    last,
    paymentMethodId,
    a.mobileNumber,
    a.hasPassword ? 1 : 0,
    a.passwordHash,
    a.challenge ? 1 : 0,
  )
  seedHistory(sql, a.email, now)
  return accountOf(rowOf(sql, a.email) as AccountRow)
}

/** An account made through the control API; an existing one with that email is replaced (its tokens dropped). */
export async function createAccount(sql: SqlStorage, input: AccountInput, now: number): Promise<SandboxAccount> {
  const a = accountSchema.parse(input)
  const email = normalised(a.email)
  if (a.mobileNumber !== undefined) sql.exec('UPDATE accounts SET mobile_number = NULL WHERE mobile_number = ?', a.mobileNumber)
  dropTokens(sql, email)
  sql.exec('DELETE FROM accounts WHERE email = ?', email)
  return insertAccount(
    sql,
    {
      email,
      card: a.card,
      mobileNumber: a.mobileNumber ?? null,
      hasPassword: a.password !== null,
      passwordHash: a.password === null ? null : await hashOfPassword(email, a.password),
      challenge: a.challenge,
    },
    now,
  )
}

export type PasswordSignIn = { kind: 'ok'; account: SandboxAccount; tokens: IssuedTokens } | { kind: 'wrong' } | { kind: 'no_password' }

export async function login(
  sql: SqlStorage,
  rawEmail: string,
  password: string,
  now: number,
  refresh: RefreshVia,
): Promise<PasswordSignIn> {
  const email = normalised(rawEmail)
  if (!email || !password) return { kind: 'wrong' }
  const row = rowOf(sql, email)
  if (row && row.has_password === 0) return { kind: 'no_password' }
  if (row?.password_hash && row.password_hash !== (await hashOfPassword(email, password))) return { kind: 'wrong' }
  const account = row
    ? accountOf(row)
    : insertAccount(sql, { email, card: true, mobileNumber: null, hasPassword: true, passwordHash: null, challenge: true }, now)
  return { kind: 'ok', account, tokens: issueTokens(sql, email, account.userId, now, refresh) }
}

/** A session for an account signed in by code (store/codes.ts): a refresh token only if the world hands one out. */
export function codeSession(sql: SqlStorage, account: SandboxAccount, now: number, refresh: 'none' | 'body'): IssuedTokens {
  return issueTokens(sql, account.email, account.userId, now, refresh)
}

export function accountByMobile(sql: SqlStorage, mobileNumber: string): SandboxAccount | null {
  const row = sql.exec<AccountRow>('SELECT * FROM accounts WHERE mobile_number = ?', mobileNumber).toArray()[0]
  return row ? accountOf(row) : null
}

/**
 * The account a code sign-in of an unknown number ends in, named by the email the diner gave: an
 * existing account without a number takes it; else a new code-only account (the sandbox's stand-in
 * for signing up, which the platform verifies by phone, [idx 60740173252]). Null when the email
 * is another number's account.
 */
export function accountForNewNumber(sql: SqlStorage, rawEmail: string, mobileNumber: string, now: number): SandboxAccount | null {
  const email = normalised(rawEmail)
  const row = rowOf(sql, email)
  if (row?.mobile_number && row.mobile_number !== mobileNumber) return null
  if (row) {
    sql.exec('UPDATE accounts SET mobile_number = ? WHERE email = ?', mobileNumber, email)
    return accountOf({ ...row, mobile_number: mobileNumber })
  }
  return insertAccount(sql, { email, card: true, mobileNumber, hasPassword: false, passwordHash: null, challenge: true }, now)
}

/** A refresh token (used up) exchanged for a new pair, in the form it came; null when it is unknown, expired or used. */
export function refresh(sql: SqlStorage, refreshToken: string, now: number): IssuedTokens | null {
  const email = emailOfToken(sql, refreshToken, 'refresh', now)
  const account = email ? accountByEmail(sql, email) : null
  const via = viaOfRefreshToken(sql, refreshToken)
  if (!account || !spendRefreshToken(sql, refreshToken, now)) return null
  return issueTokens(sql, account.email, account.userId, now, via)
}

export function accountByEmail(sql: SqlStorage, email: string): SandboxAccount | null {
  const row = rowOf(sql, normalised(email))
  return row ? accountOf(row) : null
}

/** The account of a live (unexpired) auth token. */
export function accountByToken(sql: SqlStorage, token: string, now: number): SandboxAccount | null {
  const email = emailOfToken(sql, token, 'auth', now)
  return email ? accountByEmail(sql, email) : null
}

/** Every token of the account stops working (refresh tokens too); returns how many auth tokens there were. */
export function invalidateTokens(sql: SqlStorage, email: string): number {
  return dropTokens(sql, normalised(email))
}
