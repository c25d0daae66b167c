// How the client reads sign-in answers, sessions and the CDN's cookies (docs/platform.md, "Sign-in",
// "Sessions and refresh", "The CDN"): pure rules, read the way the evidence shows the platform
// answering, and tolerant where nothing is public.
import { describe, expect, it } from 'vitest'
import { cdnCookiesOf, cookieHeader, keepCdnCookies } from '../../src/platform/cdn-cookies'
import { bookingBlockerOf } from '../../src/platform/mapping'
import { mobileNumberOf, refreshExpiryIn, sessionEndOf } from '../../src/platform/session'
import { signInRefusalOf } from '../../src/platform/sign-in-refusals'

describe('sign-in refusals', () => {
  it('reads a 419 to a password as wrong_password, and as no_password when the platform says the account has none', () => {
    expect(signInRefusalOf('password', 419, { status: 419, message: 'Unauthorized' })).toBe('wrong_password')
    expect(signInRefusalOf('password', 401, null)).toBe('wrong_password')
    expect(signInRefusalOf('password', 419, { message: 'This account has no password' })).toBe('no_password')
    expect(signInRefusalOf('password', 400, { has_set_password: 0 })).toBe('no_password')
  })

  it('leaves a 404 to the password to the caller (the /3 fallback), and a 5xx or a success to the failures', () => {
    expect(signInRefusalOf('password', 404, { message: 'Not Found' })).toBeNull()
    expect(signInRefusalOf('check_code', 500, { message: 'Internal Server Error' })).toBeNull()
    expect(signInRefusalOf('check_code', 200, { token: 't' })).toBeNull()
  })

  it('tells a wrong code from an expired one, in any of the shapes the platform names a field', () => {
    expect(signInRefusalOf('check_code', 400, { status: 400, message: 'Invalid code', data: { code: 'incorrect' } })).toBe('wrong_code')
    expect(signInRefusalOf('check_code', 419, { message: 'Unauthorized' })).toBe('wrong_code')
    expect(signInRefusalOf('check_code', 400, { data: { code: 'This code has expired' } })).toBe('code_expired')
    expect(signInRefusalOf('check_code', 422, { code: 'Code is no longer valid' })).toBe('code_expired')
  })

  it('reads too many tries from a 429 or from the words, and a captcha demand before anything else', () => {
    expect(signInRefusalOf('check_code', 429, {})).toBe('too_many_tries')
    expect(signInRefusalOf('send_code', 400, { message: 'Too many attempts, try again later' })).toBe('too_many_tries')
    expect(signInRefusalOf('password', 403, { message: 'Max attempts exceeded; account locked' })).toBe('too_many_tries')
    expect(signInRefusalOf('send_code', 400, { data: { captcha_token: 'required' } })).toBe('captcha_required')
    expect(signInRefusalOf('password', 419, { message: 'Please complete the reCAPTCHA' })).toBe('captcha_required')
  })

  it('reads the challenge’s refusals: the verbatim invalid challenge_id is a sign-in to start again, a mismatch the wrong email', () => {
    // Verbatim from [idx 57928723907].
    expect(signInRefusalOf('challenge', 400, { challenge_id: 'An invalid challenge_id was provided' })).toBe('code_expired')
    expect(signInRefusalOf('challenge', 400, { em_address: 'Email did not match' })).toBe('wrong_email')
    expect(signInRefusalOf('challenge', 419, { message: 'Unauthorized' })).toBe('wrong_email')
  })

  it('reads a refused number', () => {
    expect(signInRefusalOf('send_code', 400, { data: { mobile_number: 'Please enter a valid mobile number' } })).toBe('invalid_number')
    expect(signInRefusalOf('send_code', 422, {})).toBe('invalid_number')
  })
})

describe('mobile numbers', () => {
  it('takes E.164 as it is, a US number written the usual ways, and nothing else', () => {
    expect(mobileNumberOf('+44 7700 900123')).toBe('+447700900123')
    expect(mobileNumberOf('(212) 555-0123')).toBe('+12125550123')
    expect(mobileNumberOf('1-212-555-0123')).toBe('+12125550123')
    expect(mobileNumberOf('555-0123')).toBeNull()
    expect(mobileNumberOf('+0123456789')).toBeNull()
    expect(mobileNumberOf('call me')).toBeNull()
  })
})

describe('the session’s end', () => {
  const now = Date.parse('2026-11-01T00:00:00Z')

  it('reads the refresh token’s end from its cookie: Max-Age first, else Expires', () => {
    const headers = new Headers()
    headers.append('Set-Cookie', 'visid_incap_1=abc; expires=Fri, 01 Jan 2027 00:00:00 GMT')
    headers.append('Set-Cookie', 'production_refresh_token=r+/=; Max-Age=7776000; Path=/; HttpOnly')
    expect(refreshExpiryIn(headers, now)).toBe(now + 90 * 86_400_000)
    const expires = new Headers({ 'Set-Cookie': 'production_refresh_token=r; Expires=Mon, 01 Feb 2027 00:00:00 GMT' })
    expect(refreshExpiryIn(expires, now)).toBe(Date.parse('2027-02-01T00:00:00Z'))
    expect(refreshExpiryIn(new Headers(), now)).toBeNull()
  })

  it('ends with the refresh token when there is one, else at the auth token’s exp', () => {
    expect(sessionEndOf({ refreshToken: 'r', refreshExpiresAt: 5, expiresAt: 3 })).toBe(5)
    expect(sessionEndOf({ refreshToken: null, refreshExpiresAt: null, expiresAt: 3 })).toBe(3)
  })
})

describe('the CDN’s cookies', () => {
  const now = Date.parse('2026-11-01T00:00:00Z')

  it('keeps Imperva’s cookies from Set-Cookie, exactly as given, and nothing else', () => {
    const jar: Record<string, string> = {}
    const changed = keepCdnCookies(
      jar,
      [
        'visid_incap_2295712=Ab+/c=; expires=Sat, 01 Nov 2027 00:00:00 GMT; HttpOnly; path=/; Domain=.resy.com',
        'incap_ses_1184_2295712=Zz9=; path=/; Domain=.resy.com',
        'nlbi_2295712=Qq; HttpOnly; path=/',
        'production_refresh_token=secret; HttpOnly',
        'tracking=1',
      ],
      now,
    )
    expect(changed).toBe(true)
    expect(jar).toEqual({ visid_incap_2295712: 'Ab+/c=', incap_ses_1184_2295712: 'Zz9=', nlbi_2295712: 'Qq' })
    expect(keepCdnCookies(jar, ['nlbi_2295712=Qq; HttpOnly'], now)).toBe(false)
  })

  it('replaces a cookie set again and drops one the CDN expires', () => {
    const jar = { visid_incap_1: 'old', incap_ses_2_1: 'x' }
    keepCdnCookies(jar, ['visid_incap_1=new', 'incap_ses_2_1=x; Max-Age=0'], now)
    expect(jar).toEqual({ visid_incap_1: 'new' })
    keepCdnCookies(jar, ['visid_incap_1=gone; Expires=Thu, 01 Jan 1970 00:00:00 GMT'], now)
    expect(jar).toEqual({})
  })

  it('sends the call’s own cookies first, then the jar’s', () => {
    expect(cookieHeader({ visid_incap_1: 'v' }, { production_refresh_token: 'r+/=' })).toBe(
      'production_refresh_token=r+/=; visid_incap_1=v',
    )
    expect(cookieHeader({}, {})).toBeNull()
  })

  it('takes back from storage or a device only the CDN’s names and values a cookie can carry', () => {
    expect(cdnCookiesOf({ visid_incap_1: 'v', incap_ses_2_1: 'bad;value', other: 'x', nlbi_1: 7 })).toEqual({ visid_incap_1: 'v' })
    expect(cdnCookiesOf('nonsense')).toEqual({})
  })
})

describe('venues we cannot book', () => {
  it('reads a reCAPTCHA first, then Tock', () => {
    expect(bookingBlockerOf({ feature_recaptcha: true, is_tock_inventory: true }, '2026-12-07')).toBe('recaptcha')
    expect(bookingBlockerOf({ featureRecaptcha: true }, '2026-12-07')).toBe('recaptcha')
    expect(bookingBlockerOf({ feature_recaptcha: false, is_tock_inventory: true }, '2026-12-07')).toBe('tock')
    expect(bookingBlockerOf({}, '2026-12-07')).toBeNull()
  })
})
