// The paired device's work journal across restarts (device/src/journal.ts): a booking is never
// made twice, and nothing stays in the journal once the service has stored its result.
import { describe, expect, it } from 'vitest'
import { Journal, type JournalEntry, memoryJournal } from '../../device/src/journal'
import type { WorkCall, WorkResult } from '../../src/platform/device-protocol'

const book: WorkCall = { op: 'book', bookToken: 'bt-1' }
const find: WorkCall = { op: 'find', query: { venueId: 1, day: '2026-12-01', partySize: 2 } }

/** A journal file as the last run left it. */
function leftBehind(entries: Record<string, JournalEntry>) {
  const store = memoryJournal()
  store.save(entries)
  return store
}

const performNever = async (): Promise<WorkResult> => {
  throw new Error('must not call the platform')
}

describe('the device journal', () => {
  it('answers a booking the last run began and never finished as "unknown", sends it after hello, and forgets it once stored', async () => {
    const store = leftBehind({ 'book:1': { call: book, result: null } })
    const journal = new Journal(store)

    expect(journal.answered()).toEqual([['book:1', { kind: 'unknown', detail: expect.stringMatching(/restarted/) }]])
    // Asked again for the same item: still never a second attempt.
    expect(await journal.answer('book:1', book, performNever)).toMatchObject({ kind: 'unknown' })

    journal.forget('book:1')
    expect(journal.answered()).toEqual([])
    expect(store.load()).toEqual({})
  })

  it('drops a read the last run never finished: nobody waits for it', () => {
    const store = leftBehind({ 'find:1': { call: find, result: null } })
    const journal = new Journal(store)
    expect(journal.answered()).toEqual([])
    expect(store.load()).toEqual({})
  })

  it('keeps a finished result until the service stores it, across a restart', async () => {
    const store = memoryJournal()
    const booked: WorkResult = { kind: 'booked', reservationId: 'r-1' }
    expect(await new Journal(store).answer('book:2', book, async () => booked)).toEqual(booked)

    const afterRestart = new Journal(store)
    expect(afterRestart.answered()).toEqual([['book:2', booked]])
    expect(await afterRestart.answer('book:2', book, performNever)).toEqual(booked)
  })
})
