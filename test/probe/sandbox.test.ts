// The probe end to end against the sandbox platform worker (its own `wrangler dev`), with the
// account: an account that holds a booking (made in the setup with the service's own client, the
// probe never books), a reservation list and a find reply that each carry one odd entry. The
// probe records every call redacted, reports where the answers differ from the client's schemas
// and from a second sandbox world, and neither chooses nor books a table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sandboxControl } from '../../sandbox/control-client'
import { createPlatformClient } from '../../src/platform/client'
import { allText, type ProbeRun, runProbeCommand } from './run'
import { type SandboxWorker, startSandboxWorker } from './sandbox-worker'

const EMAIL = 'zelda.quixote@example.org'
const PASSWORD = 'probe-sandbox-password-81'
const VENUE = 60102 // Ferro Trattoria: tables open 30 days ahead (sandbox/src/venues.ts)

let worker: SandboxWorker
let run: ProbeRun
/** Every answer body and cookie the probe received: the secrets a recording must not hold. */
const received: string[] = []
const cookies: string[] = []
let callsBefore: Record<string, number | undefined>
let callsAfter: Record<string, number | undefined>

const dayAhead = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10)

beforeAll(async () => {
  worker = await startSandboxWorker()
  const base = `http://127.0.0.1:${worker.port}`
  const control = sandboxControl({ fetcher: globalThis, baseUrl: base })
  const day = dayAhead(3)
  await control.addSlot({ venueId: VENUE, day, time: '19:00', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
  // A booking on the account, made the way the service makes one.
  const client = createPlatformClient({ fetcher: globalThis, baseUrl: base, apiKey: worker.apiKey, timeoutMs: 10_000 })
  const session = await client.login(EMAIL, PASSWORD)
  if (session.kind !== 'ok') throw new Error(`sandbox login: ${session.kind}`)
  const slots = await client.findSlots({ venueId: VENUE, day, partySize: 2 })
  const slot = slots.kind === 'ok' ? slots.value.find((s) => s.time === '19:00') : undefined
  if (!slot) throw new Error('the added slot is not offered')
  const details = await client.bookingDetails(session.value, { configId: slot.configId, day, partySize: 2 })
  if (details.kind !== 'ok') throw new Error(`details: ${details.kind}`)
  const booked = await client.book(session.value, {
    bookToken: details.value.bookToken,
    paymentMethodId: session.value.paymentMethodId,
  })
  if (booked.kind !== 'booked') throw new Error(`book: ${booked.kind}`)
  await control.injectFault({ endpoint: 'reservations', kind: 'odd_entry' })
  await control.injectFault({ endpoint: 'find', kind: 'odd_entry' })
  callsBefore = await control.calls()
  const network = async (request: Request) => {
    const res = await fetch(request)
    received.push(await res.clone().text())
    cookies.push(...res.headers.getSetCookie())
    return res
  }
  run = await runProbeCommand(
    [
      ...['--base-url', base, '--api-key', worker.apiKey, '--venue', String(VENUE), '--day', day, '--account'],
      // The same calls to another world of the same sandbox (one per host name), with its own account.
      ...['--sandbox', `http://localhost:${worker.port}`, '--sandbox-key', worker.apiKey, '--sandbox-venue', String(VENUE)],
    ],
    { env: { PROBE_EMAIL: EMAIL, PROBE_PASSWORD: PASSWORD }, network },
  )
  callsAfter = await control.calls()
}, 240_000)

afterAll(async () => {
  await worker?.stop()
})

describe('the probe against the sandbox, with --account', () => {
  it('runs every read call end to end and records each one', () => {
    expect(run.code, run.output).toBe(0)
    const calls = run.summary().calls.map((c) => c.call)
    expect(calls.slice(0, 15)).toEqual([
      'GET /3/geoip',
      'GET /3/venue',
      'GET /2/config',
      'GET /4/venue/calendar',
      'GET /4/find',
      'POST /3/venuesearch/search',
      'OPTIONS /4/auth/mobile',
      'OPTIONS /4/auth/password',
      'OPTIONS /3/auth/refresh',
      'POST /4/auth/mobile',
      'POST /4/auth/password',
      'POST /4/auth/password',
      'GET /2/user',
      'GET /3/user/reservations',
      'GET /3/user/reservations',
    ])
    expect(run.json('12-login.json').response.status).toBe(200)
    const list = run.json('14-reservations-upcoming-1.json').response.json as { reservations: unknown[] }
    // The booking and the odd entry at least.
    expect(list.reservations.length).toBeGreaterThanOrEqual(2)
  })

  it('never asks for a book token, books or cancels', () => {
    expect(callsBefore.details).toBe(1)
    expect(callsBefore.book).toBe(1)
    expect(callsAfter.details).toBe(callsBefore.details)
    expect(callsAfter.book).toBe(callsBefore.book)
    expect(run.output).not.toMatch(/\/3\/(?:details|book|cancel)/)
  })

  it('writes no token, cookie value, email, password, name or card id', () => {
    // Both worlds' logins: the probe's account and the other world's made-up one.
    const logins = received.filter((t) => t.includes('"em_address"') && t.includes('"token"'))
    expect(logins).toHaveLength(2)
    const login = JSON.parse(logins[0] ?? '{}') as { token?: string; payment_method_id?: number }
    const other = JSON.parse(logins[1] ?? '{}') as { token?: string }
    const reservations = received.find((t) => t.includes('"resy_token"')) ?? ''
    const resyTokens = [...reservations.matchAll(/"resy_token":"([^"]+)"/g)].map((m) => m[1] ?? '')
    const cookieValues = cookies.map((c) => decodeURIComponent(c.split(';')[0]?.split('=').slice(1).join('=') ?? ''))
    const secrets = [
      login.token ?? '',
      other.token ?? '',
      String(login.payment_method_id),
      EMAIL,
      PASSWORD,
      'Zelda',
      'Quixote',
      ...resyTokens,
      ...cookieValues,
    ]
    expect(login.token).toBeTruthy()
    expect(resyTokens.length).toBeGreaterThan(0)
    expect(cookieValues.length).toBeGreaterThan(0)
    const text = allText(run)
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(3)
      expect(text, secret).not.toContain(secret)
      expect(run.output, secret).not.toContain(secret)
    }
    expect(text).not.toContain(worker.apiKey)
  })

  it("reports the differences from the client's schemas and from the other sandbox world", () => {
    const differences = run.summary().differences
    // The odd reservation (null time) and the odd slot (no date) the client skips.
    expect(differences).toContainEqual(
      expect.objectContaining({
        against: 'schema',
        call: '14-reservations-upcoming-1',
        path: expect.stringMatching(/^reservations\[0\]\./),
      }),
    )
    expect(differences).toContainEqual(
      expect.objectContaining({
        against: 'schema',
        call: '05-find-60102',
        path: expect.stringMatching(/^results\.venues\[0\]\.slots\[0\]/),
      }),
    )
    // The other world's list has no odd entry (and its account holds no booking): its entries differ
    // in shape from "the platform's".
    const fromSandbox = differences.filter((d) => d.against === 'sandbox' && d.call === '14-reservations-upcoming-1')
    expect(
      fromSandbox.some((d) => d.path.startsWith('reservations[]')),
      JSON.stringify(fromSandbox),
    ).toBe(true)
    expect(run.output).toMatch(
      /differences: [1-9]\d* from the client's schemas, \d+ in the client's block reading, [1-9]\d* from the sandbox/,
    )
  })
})
