// Sandbox accounts: any email with a non-empty password logs in; an email containing "nocard"
// has no payment method. Each login mints new tokens (tokens.ts); invalidating drops all of them.
import { seedHistory } from './history'
import { dropTokens, emailOfToken, type IssuedTokens, issueTokens, spendRefreshToken } from './tokens'

export interface SandboxAccount {
  email: string
  userId: number
  firstName: string
  lastName: string
  paymentMethodId: number | null
}

type AccountRow = { email: string; user_id: number; first_name: string; last_name: string; payment_method_id: number | null }

const accountOf = (r: AccountRow): SandboxAccount => ({
  email: r.email,
  userId: r.user_id,
  firstName: r.first_name,
  lastName: r.last_name,
  paymentMethodId: r.payment_method_id,
})

const capitalised = (w: string) => w.charAt(0).toUpperCase() + w.slice(1)

/** "ada.lovelace@example.com" → Ada Lovelace; a one-word local part gets "Guest" as last name. */
function namesOf(email: string): [string, string] {
  const words = (email.split('@')[0] ?? '').split(/[._+-]+/).filter((w) => /^[a-z]/i.test(w))
  return [capitalised(words[0] ?? 'Sandbox'), capitalised(words[1] ?? 'Guest')]
}

function ensureAccount(sql: SqlStorage, email: string, now: number): SandboxAccount {
  const existing = sql.exec<AccountRow>('SELECT * FROM accounts WHERE email = ?', email).toArray()[0]
  if (existing) return accountOf(existing)
  const next = sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM accounts').one().n + 1
  const [first, last] = namesOf(email)
  const userId = 4_100_000 + next
  const paymentMethodId = email.includes('nocard') ? null : 7_200_000 + next
  sql.exec(
    'INSERT INTO accounts (email, user_id, first_name, last_name, payment_method_id) VALUES (?, ?, ?, ?, ?)',
    email,
    userId,
    first,
    last,
    paymentMethodId,
  )
  seedHistory(sql, email, now)
  return { email, userId, firstName: first, lastName: last, paymentMethodId }
}

export function login(
  sql: SqlStorage,
  rawEmail: string,
  password: string,
  now: number,
): { account: SandboxAccount; tokens: IssuedTokens } | null {
  const email = rawEmail.trim().toLowerCase()
  if (!email || !password) return null
  const account = ensureAccount(sql, email, now)
  return { account, tokens: issueTokens(sql, email, account.userId, now) }
}

/** A refresh token (used up) exchanged for a new pair; null when it is unknown, expired or used. */
export function refresh(sql: SqlStorage, refreshToken: string, now: number): IssuedTokens | null {
  const email = emailOfToken(sql, refreshToken, 'refresh', now)
  const account = email ? accountByEmail(sql, email) : null
  if (!account || !spendRefreshToken(sql, refreshToken, now)) return null
  return issueTokens(sql, account.email, account.userId, now)
}

function accountByEmail(sql: SqlStorage, email: string): SandboxAccount | null {
  const row = sql.exec<AccountRow>('SELECT * FROM accounts WHERE email = ?', email).toArray()[0]
  return row ? accountOf(row) : null
}

/** The account of a live (unexpired) auth token. */
export function accountByToken(sql: SqlStorage, token: string, now: number): SandboxAccount | null {
  const email = emailOfToken(sql, token, 'auth', now)
  return email ? accountByEmail(sql, email) : null
}

/** Every token of the account stops working (refresh tokens too); returns how many auth tokens there were. */
export function invalidateTokens(sql: SqlStorage, email: string): number {
  return dropTokens(sql, email.trim().toLowerCase())
}
