// What the device did for each work item, kept until the service says the result is stored. A
// work item sent again (after a reconnect) is answered from here, never done twice; a booking
// that was started but has no result (the device restarted during it) is answered "unknown",
// so the service verifies it on the account instead of booking again.
import type { WorkCall, WorkResult } from '../../src/platform/device-protocol'

export interface JournalEntry {
  call: WorkCall
  result: WorkResult | null
}

/** Where the journal lives between runs (a 0600 file on the device; memory in tests). */
export interface JournalStore {
  load(): Record<string, JournalEntry>
  save(entries: Record<string, JournalEntry>): void
}

export const memoryJournal = (): JournalStore => {
  let kept: Record<string, JournalEntry> = {}
  return { load: () => kept, save: (entries) => (kept = structuredClone(entries)) }
}

export class Journal {
  #entries: Record<string, JournalEntry>

  constructor(private readonly store: JournalStore) {
    this.#entries = settle(store.load())
    store.save(this.#entries)
  }

  /**
   * The answer to a work item: the one recorded, or the call made now (recorded before and
   * after). `perform` runs at most once per id, across restarts.
   */
  async answer(id: string, call: WorkCall, perform: (call: WorkCall) => Promise<WorkResult>): Promise<WorkResult> {
    const known = this.#entries[id]
    if (known?.result) return known.result
    if (known && call.op === 'book') {
      // Still in flight (the item came again after a reconnect): never a second attempt.
      this.#record(id, { call, result: inFlightBooking })
      return inFlightBooking
    }
    this.#record(id, { call, result: null })
    const result = await perform(call)
    this.#record(id, { call, result })
    return result
  }

  /** The service stored the result: nothing left to answer for this id. */
  forget(id: string): void {
    if (!(id in this.#entries)) return
    const { [id]: _gone, ...rest } = this.#entries
    this.#entries = rest
    this.store.save(this.#entries)
  }

  /** Results the service may not have stored yet: sent again after each hello (storing twice changes nothing). */
  answered(): [string, WorkResult][] {
    return Object.entries(this.#entries).flatMap(([id, e]) => (e.result ? [[id, e.result] as [string, WorkResult]] : []))
  }

  #record(id: string, entry: JournalEntry) {
    this.#entries = { ...this.#entries, [id]: entry }
    this.store.save(this.#entries)
  }
}

const inFlightBooking: WorkResult = { kind: 'unknown', detail: 'this booking was still being made when the item came again' }
const restartedBooking: WorkResult = { kind: 'unknown', detail: 'the device restarted while this booking was being made' }

/**
 * The journal as a new run finds it. A booking begun by the last run and never answered may have
 * happened: it is answered "unknown" now and sent after the next hello, so the service verifies it
 * and says "stored" (the service no longer asks for an item it gave up on, so waiting for it to
 * ask would keep the entry for ever). An unanswered read is dropped: nobody waits for it any more.
 */
function settle(entries: Record<string, JournalEntry>): Record<string, JournalEntry> {
  return Object.fromEntries(
    Object.entries(entries).flatMap(([id, entry]): [string, JournalEntry][] => {
      if (entry.result) return [[id, entry]]
      return entry.call.op === 'book' ? [[id, { call: entry.call, result: restartedBooking }]] : []
    }),
  )
}
