// "Book this table" against real storage and the sandbox platform: an alert_only request's told
// table is booked by the diner's press through the request's object (details, book, and
// verification on the account), and only as the page stated it: a taken table books nothing, a
// deposit never, a fee above the limit only once accepted, and presses at once book one table.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { bookPageOf, pressToBook } from '../../src/request-use-cases/press'
import { depsOf } from '../../src/runtime/deps'
import { control, createRequest, ledgerOf, poll, setUp, VENUE, view } from './world'

const TIME = '23:15'
const SEATING = 'Dining Room'

/** An alert_only request told of one table (with these money terms) by a poll. */
async function toldTable(policy?: Parameters<ReturnType<typeof control>['addSlot']>[0]['policy'], overrides = {}) {
  const world = await setUp()
  const { day } = world
  await control().addSlot({ venueId: VENUE, day, time: TIME, seating: SEATING, partyMin: 2, partyMax: 4, ...(policy ? { policy } : {}) })
  const request = await createRequest(world.token, world.spec(overrides))
  await poll(day)
  const slotKey = `${VENUE}|${day}|${TIME}|${SEATING}`
  const page = await bookPageOf(depsOf(env), { requestId: request.id, userId: world.userId, slotKey })
  return { ...world, request, slotKey, page }
}

const pressOf = (t: Awaited<ReturnType<typeof toldTable>>, acceptedFee: number | null = null) =>
  pressToBook(depsOf(env), {
    requestId: t.request.id,
    userId: t.userId,
    slotKey: t.slotKey,
    terms: t.page.table?.fingerprint ?? '',
    acceptedFee,
  })

describe('Book this table', () => {
  it('books the told table of an alert_only request, verified on the platform account', async () => {
    const t = await toldTable()
    expect(t.request.status).toBe('active')
    expect(t.page.table?.terms).toMatchObject({ kind: 'bookable', feePerPerson: 0, aboveLimit: false })

    const after = await pressOf(t)

    expect(after.status).toBe('confirmed')
    expect(after.press?.outcome).toBe('booked')
    expect(await ledgerOf(t.platformEmail)).toHaveLength(1)
    const seen = await view(t.token, t.request.id)
    expect(seen.status).toBe('confirmed')
    expect(seen.reservations).toEqual([expect.objectContaining({ verified: true, time: TIME })])
  })

  it('says "taken" and books nothing when the table went between the alert and the press', async () => {
    const t = await toldTable()
    expect(await control().removeSlot({ venueId: VENUE, day: t.day, time: TIME, seating: SEATING })).toBe(true)

    const after = await pressOf(t)

    expect(after.press?.outcome).toBe('taken')
    expect(after.status).toBe('active')
    expect(await ledgerOf(t.platformEmail)).toEqual([])
  })

  it('offers no booking of a deposit table, and a press of it books nothing', async () => {
    const t = await toldTable({ kind: 'deposit', amountPerPerson: 40, cutoffHours: 24 })
    expect(t.page.table?.terms).toMatchObject({ kind: 'never', reason: expect.stringMatching(/deposit or prepayment/) })

    const after = await pressOf(t, 40)

    expect(after.press?.outcome).toBe('refused')
    expect(await ledgerOf(t.platformEmail)).toEqual([])
  })

  it('books a fee above the limit only after the diner accepted that fee for this table', async () => {
    const t = await toldTable({ kind: 'fee', feePerPerson: 40, cutoffHours: 24 }, { max_cancellation_fee_per_person: 10 })
    expect(t.page.table?.terms).toMatchObject({ kind: 'bookable', feePerPerson: 40, aboveLimit: true })

    const unaccepted = await pressOf(t)
    expect(unaccepted.press?.outcome).toBe('refused')
    expect(await ledgerOf(t.platformEmail)).toEqual([])

    const accepted = await pressOf(t, 40)
    expect(accepted.press?.outcome).toBe('booked')
    expect(accepted.status).toBe('confirmed')
    expect(await ledgerOf(t.platformEmail)).toHaveLength(1)
  })

  it('books one table when the same table is pressed from three devices at once', async () => {
    const t = await toldTable()

    const states = await Promise.all([pressOf(t), pressOf(t), pressOf(t)])

    expect(await ledgerOf(t.platformEmail)).toHaveLength(1)
    expect(states.some((s) => s.press?.outcome === 'booked')).toBe(true)
    const seen = await view(t.token, t.request.id)
    expect(seen.status).toBe('confirmed')
    expect(seen.reservations).toHaveLength(1)
  })
})
