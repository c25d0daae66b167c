// The request's status machine, pure: the state the Durable Object keeps, the transition
// table, and the one transition() every change goes through. No storage, no I/O. The state is
// the request's core and four sub-states, each in its own file with its reducers: watch
// (watch-state.ts), booking (booking-state.ts) and what the user was told (digest-state.ts).

import { OPEN_STATUSES, type Status } from '../core/status'
import { type BookingState, noBooking } from './booking-state'
import { type DigestState, nothingTold } from './digest-state'
import { nothingPressed, type PressState } from './press-state'
import type { Spec } from './spec'
import { notWatching, type WatchState } from './watch-state'

/** Status changes the service may make; a change that keeps the status is always allowed. */
const NEXT: Record<Status, readonly Status[]> = {
  needs_approval: ['active', 'needs_approval', 'expired', 'stopped', 'revoked'],
  // active → confirmed: an attempt whose window closed unread shows on the account later.
  active: ['awaiting_verification', 'confirmed', 'needs_approval', 'active', 'expired', 'stopped', 'revoked'],
  awaiting_verification: ['confirmed', 'active', 'expired', 'stopped', 'revoked'],
  confirmed: [],
  expired: [],
  stopped: [],
  revoked: [],
}

export function canMove(from: Status, to: Status): boolean {
  return from === to || NEXT[from].includes(to)
}

export function isOpen(status: Status): boolean {
  return (OPEN_STATUSES as readonly Status[]).includes(status)
}

interface TraceItem {
  at: number
  message: string
}

/** Who and what the request is, where its status stands, and the bookkeeping of its updates. */
interface RequestCore {
  id: string
  userId: string
  principalId: string
  status: Status
  revision: number
  /** The revision the user approved on the approval page; auto_book books only when it is current. */
  approvedRevision: number | null
  spec: Spec
  expiresAt: number
  createdAt: number
  updatedAt: number
  statusReason: string | null
  trace: TraceItem[]
  /** Idempotency-Keys of accepted updates (24 hours), so a retried update replays. */
  updateKeys: Record<string, { bodyHash: string; at: number }>
  /** The expiry time the user was warned about a day ahead (needs_approval only), so it warns once. */
  expiryWarned: number | null
}

/**
 * Everything the request's Durable Object keeps: the core and the three sub-states. It is stored
 * as one flat object under one key (state-upgrade.ts): the sub-states group the fields and their
 * changes in the code, not in storage.
 */
export interface RequestState extends RequestCore, WatchState, BookingState, DigestState, PressState {}

/** The D1 index row from which a request's object is built (or rebuilt, if creating it failed). */
export interface RequestRecord {
  id: string
  userId: string
  principalId: string
  spec: Spec
  expiresAt: number
  createdAt: number
}

export const TRACE_LIMIT = 50

export function initialState(record: RequestRecord): RequestState {
  const autoBook = record.spec.mode === 'auto_book'
  return {
    ...record,
    status: autoBook ? 'needs_approval' : 'active',
    revision: 1,
    approvedRevision: null,
    updatedAt: record.createdAt,
    statusReason: autoBook ? 'Waiting for the user to approve this request.' : null,
    trace: [],
    updateKeys: {},
    expiryWarned: null,
    ...notWatching(),
    ...noBooking(),
    ...nothingTold(),
    ...nothingPressed(),
  }
}

export class IllegalTransition extends Error {}

export interface Change {
  to?: Status
  /** The status reason after the change; left as it is when undefined. */
  reason?: string | null
  /** Lines for the decision trace. */
  trace?: string | string[]
  patch?: Partial<Omit<RequestState, 'id' | 'userId' | 'status' | 'statusReason' | 'updatedAt' | 'trace'>>
}

/** Fields the request's view shows: changing one moves updatedAt. */
const SHOWN = ['spec', 'revision', 'expiresAt', 'approvedRevision'] as const

/**
 * The one way state changes: checks the transition table, applies the patch, appends the
 * trace, and moves updatedAt forward when anything the view shows changed (strictly: the D1
 * mirror applies only newer writes). Bookkeeping alone (keys seen, subscriptions) keeps it.
 */
export function transition(state: RequestState, change: Change, now: number): RequestState {
  const to = change.to ?? state.status
  if (!canMove(state.status, to)) throw new IllegalTransition(`${state.status} → ${to} is not a transition of a request`)
  const lines = change.trace === undefined ? [] : Array.isArray(change.trace) ? change.trace : [change.trace]
  const statusReason = change.reason === undefined ? state.statusReason : change.reason
  const patch = change.patch ?? {}
  const shown =
    to !== state.status ||
    statusReason !== state.statusReason ||
    lines.length > 0 ||
    SHOWN.some((field) => field in patch && patch[field] !== state[field])
  return {
    ...state,
    ...patch,
    status: to,
    statusReason,
    trace: [...state.trace, ...lines.map((message) => ({ at: now, message }))].slice(-TRACE_LIMIT),
    updatedAt: shown ? Math.max(now, state.updatedAt + 1) : state.updatedAt,
  }
}

export type Refusal = {
  code: 'revision_conflict' | 'request_closed' | 'outcome_unknown' | 'idempotency_conflict'
  message: string
}

export function refuseUpdate(state: RequestState, revision: number): Refusal | null {
  if (state.status === 'awaiting_verification') {
    return { code: 'outcome_unknown', message: 'A booking for this request is being verified; wait for the result before changing it.' }
  }
  if (!isOpen(state.status)) {
    return { code: 'request_closed', message: `This request is ${state.status} and can no longer be changed.` }
  }
  if (revision !== state.revision) {
    return {
      code: 'revision_conflict',
      message: `This request has changed since revision ${revision}; read it again and retry with revision ${state.revision}.`,
    }
  }
  return null
}

export function refuseStop(state: RequestState): Refusal | null {
  if (state.status === 'stopped' || isOpen(state.status)) return null
  return { code: 'request_closed', message: `This request is already ${state.status}; there is nothing to stop.` }
}

export function refuseApproval(state: RequestState, revision: number): Refusal | null {
  if (state.status !== 'needs_approval') {
    return { code: 'request_closed', message: `This request is ${state.status}; there is nothing to approve.` }
  }
  if (revision !== state.revision) {
    return { code: 'revision_conflict', message: `The request changed after you opened it; review revision ${state.revision} instead.` }
  }
  return null
}

export const keyConflict: Refusal = {
  code: 'idempotency_conflict',
  message: 'This Idempotency-Key was already used with a different request body. Use a new key for a different request.',
}

export function sameSpec(a: Spec, b: Spec): boolean {
  return canonicalJson(a) === canonicalJson(b)
}

/** JSON with object keys sorted, so equal values give equal strings. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([x], [y]) => x.localeCompare(y)))
      : v,
  )
}
