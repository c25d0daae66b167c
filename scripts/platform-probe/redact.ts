// What a recording may keep. Recordings are meant to become test fixtures, so they keep every
// answer's shape (a redacted string stays a string, a redacted number a number) and drop every
// value that belongs to a person or opens their account: tokens, emails, names, phone numbers,
// payment details (card ids, last four digits, expiry) and cookie values. Two nets: by field name,
// and by what a value looks like (a JWT, an email, a phone number) wherever it appears.

export const REDACTED = '[redacted]'

/** Fields whose value is personal or a secret, wherever they appear. */
const PERSONAL_KEYS = new Set([
  'token',
  'auth_token',
  'refresh_token',
  'legacy_token',
  'claim_token',
  'challenge_id',
  'device_token',
  'resy_token',
  'book_token',
  'guest_token',
  'password',
  'email',
  'em_address',
  'first_name',
  'last_name',
  'full_name',
  'guest_name',
  'mobile_number',
  'phone',
  'phone_number',
  'payment_method_id',
  'user_id',
  'guest_id',
  'special_request',
  'date_of_birth',
  'zip_code',
  'profile_image_url',
  'last_4',
  'last4',
  'exp_month',
  'exp_year',
])

/** Objects that are payment details as a whole: every value inside them goes. */
const PAYMENT_KEYS = new Set(['payment_methods', 'payment_method', 'struct_payment_method', 'card'])

/** An object that describes a person: its `id` and `name` are theirs too. */
const PERSON_MARKERS = ['em_address', 'email', 'first_name', 'last_name', 'mobile_number']

const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]*/g
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g
/** A phone number: optional +, then at least 10 digits among spaces, dots, dashes and brackets. */
const PHONE = /\+?\(?\d(?:[\d\s().-]*\d){9,}/g

/**
 * 10 to 13 digits, no run longer than 11 (E.164 without the +): a phone number, not an epoch in
 * milliseconds (13 digits in a row, as in Imperva's X-Iinfo) or a date and time.
 */
function looksLikePhone(match: string): boolean {
  const digits = match.replace(/\D/g, '').length
  const longestRun = Math.max(...(match.match(/\d+/g) ?? ['']).map((run) => run.length))
  return digits >= 10 && digits <= 13 && longestRun <= 11 && !/[:T]/.test(match)
}

function scrubText(text: string): string {
  return text
    .replace(JWT, REDACTED)
    .replace(EMAIL, REDACTED)
    .replace(PHONE, (m) => (looksLikePhone(m) ? REDACTED : m))
}

/** Every leaf replaced, shape kept. */
function blank(value: unknown): unknown {
  if (typeof value === 'string') return REDACTED
  if (typeof value === 'number') return 0
  if (Array.isArray(value)) return value.map(blank)
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, blank(v)]))
  return value
}

/** A JSON value with personal values replaced; strings everywhere scrubbed of tokens, emails and phones. */
export function redactJson(value: unknown): unknown {
  if (typeof value === 'string') return scrubText(value)
  if (Array.isArray(value)) return value.map(redactJson)
  if (value === null || typeof value !== 'object') return value
  const isPerson = PERSON_MARKERS.some((k) => k in value)
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      if (PAYMENT_KEYS.has(key)) return [key, blank(v)]
      if (PERSONAL_KEYS.has(key) || (isPerson && (key === 'id' || key === 'name')))
        return [key, v === null || typeof v === 'boolean' ? v : blank(v)]
      return [key, redactJson(v)]
    }),
  )
}

/** Plain text (a block page, an error): scrubbed, and cut to what a reader needs. */
export function redactText(text: string, max = 4000): string {
  const scrubbed = scrubText(text)
  return scrubbed.length > max ? `${scrubbed.slice(0, max)}… (${scrubbed.length - max} more characters)` : scrubbed
}

/** `name=value; Path=/` → `name=[redacted]; Path=/`: the cookie's name and attributes stay. */
export function redactSetCookie(cookie: string): string {
  const [pair = '', ...attributes] = cookie.split(';')
  const at = pair.indexOf('=')
  const name = at < 0 ? pair.trim() : pair.slice(0, at).trim()
  return [`${name}=${REDACTED}`, ...attributes.map((a) => a.trim())].join('; ')
}

/** `a=1; b=2` → `a=[redacted]; b=[redacted]`. */
const redactCookieHeader = (value: string) =>
  value
    .split(';')
    .map((pair) => `${pair.split('=')[0]?.trim()}=${REDACTED}`)
    .join('; ')

const SECRET_HEADERS = new Set(['x-resy-auth-token', 'x-resy-universal-auth'])

/** Headers as [name, value] pairs (each Set-Cookie its own), secrets replaced. */
export function redactHeaders(headers: Headers): [string, string][] {
  const pairs: [string, string][] = []
  for (const [name, value] of headers) {
    if (name === 'set-cookie') continue
    if (name === 'authorization') pairs.push([name, value.replace(/api_key="[^"]*"/, `api_key="${REDACTED}"`)])
    else if (SECRET_HEADERS.has(name)) pairs.push([name, REDACTED])
    else if (name === 'cookie') pairs.push([name, redactCookieHeader(value)])
    else pairs.push([name, scrubText(value)])
  }
  for (const cookie of headers.getSetCookie()) pairs.push(['set-cookie', redactSetCookie(cookie)])
  return pairs
}
