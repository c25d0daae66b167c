// "Book this table": the page of one told table, for the signed-in owner of the request, and the
// press that books it (the request's object decides and books: src/request-aggregate/decide-press.ts).
// Only the service's own page reaches this; no API route or tool does, as for approval.
import { executorFor } from '../executors/executor-readiness'
import type { Executor } from '../executors/schema'
import { blockerOf, blockerWhy } from '../request-aggregate/booking/booking-waits'
import { type PressTerms, pressTermsOf, termsFingerprint } from '../request-aggregate/booking/press-terms'
import type { Press, PressableTable } from '../request-aggregate/press-state'
import type { RequestState } from '../request-aggregate/state'
import { type Deps, requestObject } from '../runtime/deps'
import { loadRequest } from './load'

/** What the page names and states about the table, and what pressing it would do. */
export interface TableToBook {
  key: string
  table: PressableTable
  /** The money terms, or why the service never books it. */
  terms: PressTerms
  /** The fingerprint of the terms shown: the press carries it back (booking/press-terms.ts). */
  fingerprint: string
}

export interface BookPage {
  state: RequestState
  /** The told table, or null when the request kept none under this key. */
  table: TableToBook | null
  /** This table's last press and its outcome, if any. */
  press: Press | null
  executor: Executor
}

/** The owner's request and the table to book (throws request_not_found for anyone else). */
export async function bookPageOf(deps: Deps, input: { requestId: string; userId: string; slotKey: string }): Promise<BookPage> {
  const state = await loadRequest(deps, input.requestId, { userId: input.userId })
  const executor = await executorFor(deps, input.userId)
  const press = state.press?.slotKey === input.slotKey ? state.press : null
  const table = state.pressable[input.slotKey]
  if (!table) return { state, table: null, press, executor }
  const at = { day: table.slot.day, startsAt: table.startsAt, timeZone: state.spec.timezone }
  const blocker = blockerOf(state, table.slot.venueId)
  const terms: PressTerms = blocker
    ? { kind: 'never', reason: blockerWhy(blocker) }
    : pressTermsOf(table.slot.terms, state.spec, at, deps.now)
  return { state, table: { key: input.slotKey, table, terms, fingerprint: termsFingerprint(table.slot.terms) }, press, executor }
}

/** The diner's press: books the table if the request and the platform allow it; the state after it. */
export async function pressToBook(
  deps: Deps,
  input: { requestId: string; userId: string; slotKey: string; terms: string; acceptedFee: number | null },
): Promise<RequestState> {
  const loaded = await loadRequest(deps, input.requestId, { userId: input.userId })
  const { slotKey, terms, acceptedFee } = input
  return (await requestObject(deps.env, input.requestId).press({ slotKey, terms, acceptedFee, now: deps.now })) ?? loaded
}
