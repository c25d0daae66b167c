// How the probe compares: the sandbox's answer with the platform's (status, the CDN's headers and
// cookies, the JSON's shape), and what its redaction keeps.
import { describe, expect, it } from 'vitest'
import { REDACTED, redactHeaders, redactJson } from '../../scripts/platform-probe/redact'
import { differencesFromSandbox } from '../../scripts/platform-probe/shape-diff'

const imperva = () => {
  const headers = new Headers({ 'Content-Type': 'application/json', 'X-CDN': 'Imperva', 'X-Iinfo': '9-1 RT(1764201600000 12)' })
  headers.append('Set-Cookie', 'visid_incap_2100000=abc; path=/')
  headers.append('Set-Cookie', 'incap_ses_1234_2100000=def; path=/')
  return headers
}

describe('differences from the sandbox', () => {
  it('names the CDN headers and cookies only the platform sends, a status that differs, and shapes', () => {
    const platform = {
      status: 200,
      headers: imperva(),
      json: { results: { venues: [] }, reservations: [{ time_slot: { start: '19:00:00' } }, { time_slot: '19:00:00' }] },
    }
    const sandbox = {
      status: 200,
      headers: new Headers({ 'Content-Type': 'application/json; charset=UTF-8' }),
      json: { results: { venues: [{ venue: { id: { resy: 1 } }, slots: [] }] }, reservations: [{ time_slot: '19:00:00' }] },
    }
    expect(differencesFromSandbox(platform, sandbox)).toEqual([
      { path: '(header x-cdn)', detail: 'only the platform sends it' },
      { path: '(header x-iinfo)', detail: 'only the platform sends it' },
      { path: '(cookie visid_incap_*)', detail: 'only the platform sets it' },
      { path: '(cookie incap_ses_*)', detail: 'only the platform sets it' },
      { path: 'reservations[].time_slot', detail: 'platform object|string, sandbox string' },
      { path: 'reservations[].time_slot.start', detail: 'only on the platform (string)' },
      { path: 'results.venues[]', detail: 'only in the sandbox (object)' },
    ])
    expect(differencesFromSandbox({ ...platform, status: 500, json: undefined }, sandbox).slice(0, 2)).toEqual([
      { path: '(status)', detail: 'platform 500, sandbox 200' },
      { path: '(header x-cdn)', detail: 'only the platform sends it' },
    ])
  })
})

describe('redaction', () => {
  it('keeps the shape and drops personal values, by name and by look', () => {
    const answer = {
      id: 4100001,
      first_name: 'Ada',
      em_address: 'ada@example.com',
      payment_methods: [{ id: 7200001, display: '4242', exp_year: 2030, is_default: true }],
      venue: { id: 1505, name: 'Lilia' },
      share: { guests: [{ id: 77, name: 'Grace Hopper', email: 'grace@example.com', is_host: false }] },
      note: 'token eyJhbGciOiJIUzI1NiJ9.eyJ1aWQiOjF9.sig, call +1 212 555 0187 or write to a.b@example.org',
      when: '2026-12-05T19:00:00Z',
    }
    expect(redactJson(answer)).toEqual({
      id: 0,
      first_name: REDACTED,
      em_address: REDACTED,
      payment_methods: [{ id: 0, display: REDACTED, exp_year: 0, is_default: true }],
      venue: { id: 1505, name: 'Lilia' },
      share: { guests: [{ id: 0, name: REDACTED, email: REDACTED, is_host: false }] },
      note: `token ${REDACTED}, call ${REDACTED} or write to ${REDACTED}`,
      when: '2026-12-05T19:00:00Z',
    })
  })

  it('keeps header names and cookie attributes, not secret values; an epoch in X-Iinfo is no phone number', () => {
    const headers = imperva()
    headers.set('X-Resy-Auth-Token', 'eyJ.secret')
    headers.set('Authorization', 'ResyAPI api_key="abc123"')
    expect(redactHeaders(headers)).toEqual([
      ['authorization', `ResyAPI api_key="${REDACTED}"`],
      ['content-type', 'application/json'],
      ['x-cdn', 'Imperva'],
      ['x-iinfo', '9-1 RT(1764201600000 12)'],
      ['x-resy-auth-token', REDACTED],
      ['set-cookie', `visid_incap_2100000=${REDACTED}; path=/`],
      ['set-cookie', `incap_ses_1234_2100000=${REDACTED}; path=/`],
    ])
  })
})
