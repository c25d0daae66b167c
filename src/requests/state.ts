// The request's status machine, pure: the transition table, and the decisions the Durable
// Object applies. No storage, no I/O.

import { OPEN_STATUSES, type Status } from '../core/status'
import type { RequestSpec } from './schemas'

const NEXT: Record<Status, readonly Status[]> = {
  needs_approval: ['active', 'needs_approval', 'expired', 'stopped', 'revoked'],
  active: ['awaiting_verification', 'needs_approval', 'active', 'expired', 'stopped', 'revoked'],
  awaiting_verification: ['confirmed', 'active', 'expired', 'stopped', 'revoked'],
  confirmed: [],
  expired: [],
  stopped: [],
  revoked: [],
}

export function canMove(from: Status, to: Status): boolean {
  return NEXT[from].includes(to)
}

export function isOpen(status: Status): boolean {
  return (OPEN_STATUSES as readonly Status[]).includes(status)
}

export interface TraceItem {
  at: number
  message: string
}

/** Everything the request's Durable Object keeps. */
export interface RequestState {
  id: string
  userId: string
  principalId: string
  status: Status
  revision: number
  /** The revision the user approved on the approval page; auto_book books only when it is current. */
  approvedRevision: number | null
  spec: RequestSpec
  expiresAt: number
  createdAt: number
  updatedAt: number
  statusReason: string | null
  lastCheckedAt: number | null
  trace: TraceItem[]
  /** Slot keys the user was already told about (bounded), so each slot alerts once. */
  alerted: string[]
  /** The last summary traced per venue-date, so an unchanged poll writes nothing. */
  summaries: Record<string, string>
  /** The one booking attempt this request may ever make, while it is being verified. */
  attempt: BookingAttempt | null
  /**
   * Set when an attempt's outcome could never be verified: the request then only alerts, so a
   * booking that lands late can never be followed by a second one.
   */
  bookingDisabled: string | null
}

export interface BookingAttempt {
  slotKey: string
  venueId: number
  venueName: string
  day: string
  time: string
  partySize: number
  seatingType: string
  startsAt: number
  revision: number
  cancellationFee: number | null
  freeCancellationUntil: number | null
  /** Matching reservations already on the account before booking: never mistaken for ours. */
  preexisting: string[]
  createdAt: number
  /** What the book call answered; 'pending' if the object stopped before it answered. */
  outcome: 'pending' | 'booked' | 'refused' | 'unknown'
  refusal: string | null
  platformReservationId: string | null
  /** Verification continues on later alarms until then. */
  verifyUntil: number
}

/** The D1 index row from which a request's object is built (or rebuilt, if creating it failed). */
export interface RequestRecord {
  id: string
  userId: string
  principalId: string
  spec: RequestSpec
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
    lastCheckedAt: null,
    trace: [],
    alerted: [],
    summaries: {},
    attempt: null,
    bookingDisabled: null,
  }
}

export const ALERTED_LIMIT = 500

/** Updated-at must grow strictly: the D1 mirror applies a write only if it is newer. */
export function touch(state: RequestState, now: number): number {
  return Math.max(now, state.updatedAt + 1)
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

/**
 * The state after an accepted update. An identical spec changes nothing. A spec that is or
 * was auto_book needs a fresh approval; an alert_only spec keeps watching.
 */
export function applyUpdate(state: RequestState, spec: RequestSpec, expiresAt: number, now: number): RequestState | null {
  if (sameSpec(state.spec, spec)) return null
  const needsApproval = spec.mode === 'auto_book' || state.spec.mode === 'auto_book'
  return {
    ...state,
    spec,
    expiresAt,
    revision: state.revision + 1,
    // design.md: an update to or of auto_book needs the user's approval again, even when it
    // switches to alert_only, so an assistant cannot quietly rewrite what the user approved.
    status: needsApproval ? 'needs_approval' : 'active',
    approvedRevision: null,
    statusReason: needsApproval ? 'The request changed; the user must approve the new revision.' : null,
    updatedAt: touch(state, now),
  }
}

export function sameSpec(a: RequestSpec, b: RequestSpec): boolean {
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
