// How the real client maps the platform's failures, and where it retries: faults are injected
// into the sandbox platform, and its per-endpoint call counts show what the client sent.
import { describe, expect, it, vi } from 'vitest'
import type { Platform } from '../../src/platform/api'
import { DEFAULT_USER_AGENT } from '../../src/platform/user-agent'
import { asUser } from '../helpers/credentials'
import { freshWorld, OPEN_VENUE, ownSlot } from './world'

type World = ReturnType<typeof freshWorld>

async function signedIn(world: World, email = 'ada@example.com') {
  const login = await world.platform.login(email, 'pw')
  if (login.kind !== 'ok') throw new Error(`login: ${login.kind}`)
  return login.value
}

/** A fresh book token for a slot the test owns. */
async function readyToBook(world: World, slotExtra: Parameters<typeof ownSlot>[1] = {}, email?: string) {
  const account = await signedIn(world, email)
  const slot = await ownSlot(world, slotExtra)
  const found = await world.platform.findSlots({ venueId: slot.venueId, day: slot.day, partySize: 2 })
  const configId = found.kind === 'ok' ? found.value.find((s) => s.time === slot.time)?.configId : undefined
  if (!configId) throw new Error('own slot not offered')
  const details = await world.platform.bookingDetails(account, { configId, day: slot.day, partySize: 2 })
  if (details.kind !== 'ok') throw new Error(`details: ${details.kind}`)
  return { account, slot, configId, bookToken: details.value.bookToken }
}

const find = (platform: Platform) => platform.findSlots({ venueId: OPEN_VENUE.id, day: '2030-01-01', partySize: 2 })

describe('booking refusals', () => {
  it('is card_on_file_required when the slot holds a card and the book carried none', async () => {
    const world = freshWorld()
    const { account, bookToken } = await readyToBook(
      world,
      { policy: { kind: 'fee', feePerPerson: 25, cutoffHours: 24 } },
      'grace.nocard@example.com',
    )
    expect(await world.platform.book(account, { bookToken, paymentMethodId: account.paymentMethodId })).toEqual({
      kind: 'refused',
      reason: 'card_on_file_required',
    })
  })

  it('is card_required when the book carried a card the platform did not take', async () => {
    const world = freshWorld()
    const { account, bookToken } = await readyToBook(world, { policy: { kind: 'fee', feePerPerson: 25, cutoffHours: 24 } })
    expect(await world.platform.book(account, { bookToken, paymentMethodId: 1 })).toEqual({ kind: 'refused', reason: 'card_required' })
  })

  it('is slot_gone when someone else took the table first', async () => {
    const world = freshWorld()
    const ada = await readyToBook(world)
    const bob = await signedIn(world, 'bob@example.com')
    const bobDetails = await world.platform.bookingDetails(bob, { configId: ada.configId, day: ada.slot.day, partySize: 2 })
    if (bobDetails.kind !== 'ok') throw new Error(bobDetails.kind)
    expect((await world.platform.book(ada.account, { bookToken: ada.bookToken, paymentMethodId: ada.account.paymentMethodId })).kind).toBe(
      'booked',
    )
    expect(await world.platform.book(bob, { bookToken: bobDetails.value.bookToken, paymentMethodId: bob.paymentMethodId })).toEqual({
      kind: 'refused',
      reason: 'slot_gone',
    })
  })

  it('is never a definite refusal on a 412: unknown, so the account is checked', async () => {
    const world = freshWorld()
    const { account, bookToken } = await readyToBook(world)
    await world.control.injectFault({ endpoint: 'book', kind: '412' })
    expect(await world.platform.book(account, { bookToken, paymentMethodId: account.paymentMethodId })).toEqual({
      kind: 'unknown',
      detail: 'HTTP 412',
    })
    expect(await world.control.ledger()).toEqual([])
  })

  it('is unknown when a retried book of a table the account now holds gets 412 with specs', async () => {
    const world = freshWorld()
    const { account, bookToken } = await readyToBook(world)
    const command = { bookToken, paymentMethodId: account.paymentMethodId }
    expect((await world.platform.book(account, command)).kind).toBe('booked')
    expect(await world.platform.book(account, command)).toEqual({
      kind: 'unknown',
      detail: 'HTTP 412 with specs: the account may already hold this table',
    })
    expect(await world.control.ledger()).toHaveLength(1)
  })

  it('is unknown when the booking committed and the answer was the 412 a retry gets', async () => {
    const world = freshWorld()
    const { account, bookToken } = await readyToBook(world)
    await world.control.injectFault({ endpoint: 'book', kind: 'book_held' })
    expect(await world.platform.book(account, { bookToken, paymentMethodId: account.paymentMethodId })).toMatchObject({
      kind: 'unknown',
      detail: expect.stringContaining('specs'),
    })
    expect(await world.control.ledger()).toHaveLength(1)
  })

  it('is reauth when the token was invalidated', async () => {
    const world = freshWorld()
    const { account, bookToken } = await readyToBook(world)
    await world.control.invalidateTokens('ada@example.com')
    expect(await world.platform.book(account, { bookToken, paymentMethodId: account.paymentMethodId })).toEqual({
      kind: 'reauth',
    })
  })

  it('is rate_limited on 429, with the wait the platform asked for', async () => {
    const world = freshWorld()
    const { account, bookToken } = await readyToBook(world)
    await world.control.injectFault({ endpoint: 'book', kind: '429' })
    expect(await world.platform.book(account, { bookToken, paymentMethodId: account.paymentMethodId })).toEqual({
      kind: 'rate_limited',
      retryAfterMs: 1000,
    })
  })
})

describe('booking outcomes that are not known', () => {
  it('reports a 5xx as unknown and does not send the booking again', async () => {
    const world = freshWorld()
    const { account, bookToken } = await readyToBook(world)
    await world.control.injectFault({ endpoint: 'book', kind: '503' })
    expect(await world.platform.book(account, { bookToken, paymentMethodId: account.paymentMethodId })).toMatchObject({
      kind: 'unknown',
    })
    expect((await world.control.calls()).book).toBe(1)
  })

  it('reports a timeout as unknown after the book call’s timeout, without a retry', async () => {
    const world = freshWorld({ timeoutMs: 150, slowCallTimeoutMs: 150 })
    const { account, bookToken } = await readyToBook(world)
    await world.control.injectFault({ endpoint: 'book', kind: 'timeout', hangMs: 1500 })
    const started = Date.now()
    expect(await world.platform.book(account, { bookToken, paymentMethodId: account.paymentMethodId })).toEqual({
      kind: 'unknown',
      detail: 'timeout',
    })
    expect(Date.now() - started).toBeLessThan(1000)
    expect((await world.control.calls()).book).toBe(1)
  })

  it('leaves exactly one reservation when the booking committed but its answer was lost', async () => {
    for (const hangMs of [0, 1500]) {
      const world = freshWorld({ timeoutMs: 300 })
      const { account, bookToken } = await readyToBook(world)
      await world.control.injectFault({ endpoint: 'book', kind: 'book_lost', hangMs })
      expect(await world.platform.book(account, { bookToken, paymentMethodId: account.paymentMethodId })).toMatchObject({
        kind: 'unknown',
      })
      expect((await world.control.calls()).book).toBe(1)
      const listed = await world.platform.listReservations(account)
      expect(listed.kind === 'ok' && listed.value.length).toBe(1)
      expect(await world.control.ledger()).toHaveLength(1)
    }
  })
})

describe('reads', () => {
  it('retry a 5xx with backoff and succeed', async () => {
    const world = freshWorld()
    await world.control.injectFault({ endpoint: 'find', kind: '500', count: 2 })
    expect((await find(world.platform)).kind).toBe('ok')
    expect((await world.control.calls()).find).toBe(3)
  })

  it('give up as unavailable after a bounded number of retries', async () => {
    const world = freshWorld()
    await world.control.injectFault({ endpoint: 'find', kind: '503', count: 10 })
    expect(await find(world.platform)).toMatchObject({ kind: 'unavailable', detail: expect.stringContaining('503') })
    expect((await world.control.calls()).find).toBe(3)
  })

  it('retry a timed-out read', async () => {
    const world = freshWorld({ timeoutMs: 150 })
    await world.control.injectFault({ endpoint: 'search', kind: 'timeout', hangMs: 1500 })
    expect(await world.platform.searchVenues('Velour')).toMatchObject({ kind: 'ok', value: [{ name: 'Velour' }] })
    expect((await world.control.calls()).search).toBe(2)
  })

  it('do not retry on 429 but report rate_limited', async () => {
    const world = freshWorld()
    await world.control.injectFault({ endpoint: 'find', kind: '429', count: 5 })
    expect(await find(world.platform)).toEqual({ kind: 'rate_limited', retryAfterMs: 1000 })
    expect((await world.control.calls()).find).toBe(1)
  })

  it('map 419 to reauth without retrying', async () => {
    const world = freshWorld()
    expect(await world.platform.checkAccount(asUser('not-a-token'))).toEqual({ kind: 'reauth' })
    expect((await world.control.calls()).user).toBe(1)
  })

  it('map a 404 from booking details to not_found', async () => {
    const world = freshWorld()
    const account = await signedIn(world)
    const configId = `rgs://resy/${OPEN_VENUE.id}/1/2/2030-01-01/2030-01-01/05:00:00/2/Nowhere`
    expect(await world.platform.bookingDetails(account, { configId, day: '2030-01-01', partySize: 2 })).toEqual({
      kind: 'not_found',
    })
  })

  it('retry booking details, which only reads', async () => {
    const world = freshWorld()
    await world.control.injectFault({ endpoint: 'details', kind: '500' })
    await readyToBook(world)
    expect((await world.control.calls()).details).toBe(2)
  })
})

describe('login', () => {
  it('is not retried: a 5xx is unavailable after one call', async () => {
    const world = freshWorld()
    await world.control.injectFault({ endpoint: 'login', kind: '500' })
    expect(await world.platform.login('ada@example.com', 'pw')).toMatchObject({ kind: 'unavailable' })
    expect((await world.control.calls()).login).toBe(1)
  })
})

describe('a 419 is about the API key on calls that send only the key, about the user on the others', () => {
  it('is an operator fault on find, search and venue when the API key is wrong, and is logged for operators', async () => {
    const problems: unknown[] = []
    const world = freshWorld({ apiKey: 'rotated-or-wrong-key', onProblem: (p) => void problems.push(p) })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    try {
      for (const got of [
        await find(world.platform),
        await world.platform.searchVenues('juniper'),
        await world.platform.venueDetails(OPEN_VENUE.id),
      ]) {
        expect(got).toMatchObject({ kind: 'operator_fault', detail: expect.stringContaining('HTTP 419') })
      }
      expect(problems).toContainEqual({ kind: 'operator_fault', status: 419, path: '/4/find' })
      expect(warn.mock.calls.map((c) => String(c[0]))).toContain(
        'platform.operator_fault {"kind":"operator_fault","status":419,"path":"/4/find"}',
      )
    } finally {
      warn.mockRestore()
    }
  })

  it('is an operator fault when the platform answers a key-only call 419, and reauth on a user-token call', async () => {
    const world = freshWorld()
    const account = await signedIn(world)
    await world.control.injectFault({ endpoint: 'find', kind: '419' })
    expect(await find(world.platform)).toMatchObject({ kind: 'operator_fault' })
    await world.control.injectFault({ endpoint: 'reservations', kind: '419' })
    expect(await world.platform.listReservations(account)).toEqual({ kind: 'reauth' })
  })
})

describe('firewall and CDN blocks', () => {
  it.each([
    ['empty_500', 'empty_500'],
    ['plain_500', 'plain_500'],
    ['html_403', 'html_page'],
    ['cloudfront', 'cloudfront'],
    ['imperva', 'imperva'],
  ] as const)('reads the %s block as blocked, distinct from unavailable and 429, without retrying it', async (style, signal) => {
    const world = freshWorld()
    await world.control.block({ forMs: 60_000, style })
    expect(await find(world.platform)).toEqual({ kind: 'blocked', signal })
    expect(world.sent).toHaveLength(1)
  })

  it('reports a blocked book as unknown (verify), never as refused', async () => {
    const world = freshWorld()
    const { account, bookToken } = await readyToBook(world)
    await world.control.block({ forMs: 60_000, style: 'cloudfront' })
    expect(await world.platform.book(account, { bookToken, paymentMethodId: account.paymentMethodId })).toEqual({
      kind: 'unknown',
      detail: 'blocked: a CloudFront error (X-Cache)',
    })
  })

  it('blocks one client for a while and lets another through', async () => {
    const safari = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15'
    const world = freshWorld()
    const other = world.client({ userAgent: safari })
    await world.control.block({ userAgent: DEFAULT_USER_AGENT, forMs: 400, style: 'empty_500' })
    expect(await find(world.platform)).toEqual({ kind: 'blocked', signal: 'empty_500' })
    expect((await find(other)).kind).toBe('ok')
    await scheduler.wait(450)
    expect((await find(world.platform)).kind).toBe('ok')
  })
})

describe('one odd entry in a list', () => {
  it('is skipped and logged (where and why, no values); the rest of the reservations is used', async () => {
    const world = freshWorld()
    const { account, bookToken } = await readyToBook(world)
    expect((await world.platform.book(account, { bookToken, paymentMethodId: account.paymentMethodId })).kind).toBe('booked')
    await world.control.injectFault({ endpoint: 'reservations', kind: 'odd_entry' })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    try {
      const listed = await world.platform.listReservations(account)
      expect(listed.kind === 'ok' && listed.value.length).toBe(1)
      const lines = warn.mock.calls.map((c) => String(c[0]))
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/^platform\.skipped_entry \{"path":"\/3\/user\/reservations","entry":"reservations\[0\]","issue":"/)
      expect(lines[0]).not.toContain(account.authToken)
    } finally {
      warn.mockRestore()
    }
  })

  it('is skipped in a find reply; the other slots are still offered', async () => {
    const world = freshWorld()
    const slot = await ownSlot(world)
    await world.control.injectFault({ endpoint: 'find', kind: 'odd_entry' })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    try {
      const found = await world.platform.findSlots({ venueId: slot.venueId, day: slot.day, partySize: 2 })
      expect(found.kind === 'ok' && found.value.some((s) => s.time === slot.time)).toBe(true)
      expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
        expect.stringMatching(/^platform\.skipped_entry \{"path":"\/4\/find","entry":"venues\[0\]\.slots\[0\]"/),
      ])
    } finally {
      warn.mockRestore()
    }
  })
})
