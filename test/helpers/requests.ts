// Valid request specs to start from, and the calls every lifecycle test repeats.
import { env, runInDurableObject } from 'cloudflare:test'
import { expect } from 'vitest'
import { requestObject } from '../../src/runtime/deps'
import { type ApiResult, api, newKey } from './api'
import { DAY_MS, dateIn, expiresIn, instantIn, NEW_YORK } from './time'
import { VENUES } from './venues'

export type Spec = Record<string, unknown>

/**
 * A valid alert_only spec for one New York venue, a week out, 18:00–21:00, expiring in two
 * days (well before the window and the token's 90 days). Override any field; pass `undefined`
 * to drop one.
 */
export function validSpec(overrides: Spec = {}): Spec {
  const spec: Spec = {
    title: 'Dinner with Sam',
    venue_ids: [VENUES.ny[0]!.venue_id],
    dates: [dateIn(NEW_YORK, 7)],
    party_size: 2,
    earliest_time: '18:00',
    latest_time: '21:00',
    timezone: NEW_YORK,
    mode: 'alert_only',
    expires_at: expiresIn(2 * DAY_MS),
    ...overrides,
  }
  for (const [k, v] of Object.entries(spec)) if (v === undefined) delete spec[k]
  return spec
}

/** The smallest spec the contract allows: only required fields. */
export function minimalSpec(overrides: Spec = {}): Spec {
  return {
    venue_ids: [VENUES.ny[0]!.venue_id],
    dates: [dateIn(NEW_YORK, 7)],
    earliest_time: '18:00',
    latest_time: '21:00',
    expires_at: expiresIn(2 * DAY_MS),
    ...overrides,
  }
}

export function preview(token: string, spec: unknown): Promise<ApiResult> {
  return api('/requests/preview', { method: 'POST', token, body: spec })
}

export function create(token: string, spec: unknown, idempotencyKey: string = newKey()): Promise<ApiResult> {
  return api('/requests', { method: 'POST', token, body: spec, idempotencyKey })
}

/** Creates and asserts 201; returns the view. */
export async function createOk(token: string, spec: Spec = validSpec()): Promise<ApiResult['body']> {
  const res = await create(token, spec)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}

export function getRequest(token: string, id: string): Promise<ApiResult> {
  return api(`/requests/${id}`, { token })
}

export function update(token: string, id: string, revision: number, spec: unknown, idempotencyKey: string = newKey()): Promise<ApiResult> {
  return api(`/requests/${id}`, { method: 'PUT', token, body: { revision, spec }, idempotencyKey })
}

export function stop(token: string, id: string): Promise<ApiResult> {
  return api(`/requests/${id}/stop`, { method: 'POST', token })
}

export async function countRequests(userId: string): Promise<number> {
  const row = await env.DB.prepare('select count(*) as n from requests where user_id = ?').bind(userId).first<{ n: number }>()
  return row?.n ?? 0
}

export async function countOpenRequests(userId: string): Promise<number> {
  const row = await env.DB.prepare(
    "select count(*) as n from requests where user_id = ? and status in ('needs_approval', 'active', 'awaiting_verification')",
  )
    .bind(userId)
    .first<{ n: number }>()
  return row?.n ?? 0
}

export interface ReservationFields {
  verified?: boolean
  date?: string
  time?: string
  timeZone?: string
  /** Recorded for this principal instead of the request's current owner (a booking recorded by a stale owner). */
  principalId?: string
}

/** Records a reservation for a request the way the booking engine will: same owner and principal. */
export async function insertReservation(requestId: string, fields: ReservationFields = {}): Promise<number> {
  const owner = await env.DB.prepare('select user_id, principal_id from requests where id = ?')
    .bind(requestId)
    .first<{ user_id: string; principal_id: string }>()
  if (!owner) throw new Error(`request ${requestId} is not in the D1 index`)
  const verified = fields.verified ?? true
  const timeZone = fields.timeZone ?? NEW_YORK
  const date = fields.date ?? dateIn(timeZone, 7)
  const time = fields.time ?? '19:00'
  const now = Date.now()
  const row = await env.DB.prepare(
    `insert into reservations (request_id, user_id, principal_id, venue_id, date, time, party_size, seating, starts_at,
       platform_reservation_id, cancellation_fee, cancellation_deadline, verified, created_at, verified_at)
     values (?, ?, ?, ?, ?, ?, 2, 'any', ?, ?, 0, null, ?, ?, ?) returning id`,
  )
    .bind(
      requestId,
      owner.user_id,
      fields.principalId ?? owner.principal_id,
      VENUES.ny[0]!.venue_id,
      date,
      time,
      instantIn(timeZone, date, time),
      `resy-${requestId}`,
      verified ? 1 : 0,
      now,
      verified ? now : null,
    )
    .first<{ id: number }>()
  if (!row) throw new Error('reservation insert returned nothing')
  return row.id
}

/** A request's status as its D1 index row mirrors it; undefined when there is no row. */
export async function requestStatus(id: string): Promise<string | undefined> {
  const row = await env.DB.prepare('select status from requests where id = ?').bind(id).first<{ status: string }>()
  return row?.status
}

/** When the request's object wakes next; null when no alarm is set. */
export function alarmOf(id: string): Promise<number | null> {
  return runInDurableObject(requestObject(env, id), (_instance, state) => state.storage.getAlarm())
}
