// The D1 index of requests: the atomic create, the mirror of each object's state, and the
// reads behind list, limits and overlap checks.
import { and, desc, eq, inArray, lt, or } from 'drizzle-orm'
import { OPEN_STATUSES } from '../core/status'
import type { Db } from './client'
import { requests } from './schema'

export const OPEN_REQUEST_LIMIT = 20
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000

/** A requested window as instants: [startsAt, endsAt], inclusive. */
export type Window = [number, number]

const OPEN_SQL = `('${OPEN_STATUSES.join("','")}')`

/**
 * Open auto_book requests of the user whose windows intersect any of the given windows
 * (a JSON `[[start,end],…]` parameter), other than one request id. Arguments are the
 * positional parameter numbers, so the fragment fits any statement.
 */
function overlapSql(user: string, windows: string, except: string): string {
  return `SELECT DISTINCT r.id AS id, r.status AS status, r.principal_id AS principalId
    FROM request_windows w JOIN requests r ON r.id = w.request_id, json_each(${windows}) nw
    WHERE r.user_id = ${user} AND r.mode = 'auto_book' AND r.status IN ${OPEN_SQL} AND r.id != ${except}
      AND w.starts_at <= json_extract(nw.value, '$[1]') AND w.ends_at >= json_extract(nw.value, '$[0]')`
}

/** The spec as the index keeps it: JSON, with the mode in a column of its own. */
interface IndexedSpec {
  mode: string
}

/** A new request as the index stores it. */
interface NewRequestRow {
  id: string
  userId: string
  principalId: string
  spec: IndexedSpec
  expiresAt: number
  createdAt: number
}

/** What the index mirrors of a request object's state. */
export interface RequestMirror {
  id: string
  status: string
  revision: number
  spec: IndexedSpec
  expiresAt: number
  updatedAt: number
}

export interface CreateInput {
  record: NewRequestRow
  scopeKey: string
  bodyHash: string
  windows: Window[]
  now: number
}

/**
 * Claims the idempotency key and inserts the request in one D1 transaction, only while the
 * user has fewer than 20 open requests and (for auto_book) no overlapping open auto_book
 * request. Concurrent callers cannot both pass: D1 runs a batch as one transaction.
 * Returns true when this call created the request.
 */
export async function insertRequestAtomically(d1: D1Database, input: CreateInput): Promise<boolean> {
  const { record, scopeKey, bodyHash, windows, now } = input
  const spec = JSON.stringify(record.spec)
  const windowsJson = JSON.stringify(windows)
  const checkOverlap = record.spec.mode === 'auto_book' ? 1 : 0
  await d1.batch([
    d1.prepare('DELETE FROM idempotency_keys WHERE scope_key = ?1 AND expires_at <= ?2').bind(scopeKey, now),
    d1
      .prepare(
        `INSERT INTO idempotency_keys (scope_key, body_hash, request_id, status_code, created_at, expires_at)
         SELECT ?1, ?2, ?5, 201, ?6, ?7
         WHERE (SELECT count(*) FROM requests WHERE user_id = ?3 AND status IN ${OPEN_SQL}) < ${OPEN_REQUEST_LIMIT}
           AND NOT (?8 = 1 AND EXISTS (${overlapSql('?3', '?4', '?5')}))
         ON CONFLICT (scope_key) DO NOTHING`,
      )
      .bind(scopeKey, bodyHash, record.userId, windowsJson, record.id, now, now + IDEMPOTENCY_TTL_MS, checkOverlap),
    d1
      .prepare(
        `INSERT INTO requests (id, user_id, principal_id, status, mode, revision, spec, expires_at, created_at, updated_at)
         SELECT ?1, ?2, ?3, ?4, ?5, 1, ?6, ?7, ?8, ?8
         WHERE EXISTS (SELECT 1 FROM idempotency_keys WHERE scope_key = ?9 AND request_id = ?1)`,
      )
      .bind(
        record.id,
        record.userId,
        record.principalId,
        record.spec.mode === 'auto_book' ? 'needs_approval' : 'active',
        record.spec.mode,
        spec,
        record.expiresAt,
        record.createdAt,
        scopeKey,
      ),
    d1
      .prepare(
        `INSERT INTO request_windows (request_id, starts_at, ends_at)
         SELECT ?1, json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?2)
         WHERE EXISTS (SELECT 1 FROM requests WHERE id = ?1)`,
      )
      .bind(record.id, windowsJson),
  ])
  const row = await d1
    .prepare('SELECT request_id FROM idempotency_keys WHERE scope_key = ?1')
    .bind(scopeKey)
    .first<{ request_id: string }>()
  return row?.request_id === record.id
}

/** Writes the object's state into the index, unless a newer state is already there. */
export async function mirrorState(d1: D1Database, state: RequestMirror, windows: Window[] | null): Promise<void> {
  const update = d1
    .prepare(
      `UPDATE requests SET status = ?2, mode = ?3, revision = ?4, spec = ?5, expires_at = ?6, updated_at = ?7
       WHERE id = ?1 AND updated_at <= ?7`,
    )
    .bind(state.id, state.status, state.spec.mode, state.revision, JSON.stringify(state.spec), state.expiresAt, state.updatedAt)
  if (!windows) {
    await update.run()
    return
  }
  await d1.batch([
    update,
    d1.prepare('DELETE FROM request_windows WHERE request_id = ?1').bind(state.id),
    d1
      .prepare(
        `INSERT INTO request_windows (request_id, starts_at, ends_at)
         SELECT ?1, json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?2)`,
      )
      .bind(state.id, JSON.stringify(windows)),
  ])
}

export interface OverlapHit {
  id: string
  status: string
  /** The token or grant that created it: another one's request is not the caller's to name. */
  principalId: string
}

/** Open auto_book requests of this user overlapping the windows, other than `exceptId`. */
export async function findOverlappingRequests(d1: D1Database, userId: string, windows: Window[], exceptId = ''): Promise<OverlapHit[]> {
  const { results } = await d1
    .prepare(overlapSql('?1', '?2', '?3'))
    .bind(userId, JSON.stringify(windows), exceptId)
    .all<OverlapHit>()
  return results
}

export async function countOpenRequests(db: Db, userId: string): Promise<number> {
  const rows = await db
    .select({ id: requests.id })
    .from(requests)
    .where(and(eq(requests.userId, userId), inArray(requests.status, [...OPEN_STATUSES])))
  return rows.length
}

export type RequestRow = typeof requests.$inferSelect

export async function findRequestRow(db: Db, id: string): Promise<RequestRow | undefined> {
  const [row] = await db.select().from(requests).where(eq(requests.id, id))
  return row
}

/** A page of a principal's (or, for the pages, a user's) requests, newest first, after the (createdAt, id) cursor. */
export async function pageRequests(
  db: Db,
  owner: { principalId: string } | { userId: string },
  limit: number,
  after: { createdAt: number; id: string } | null,
): Promise<RequestRow[]> {
  const older = after
    ? or(lt(requests.createdAt, after.createdAt), and(eq(requests.createdAt, after.createdAt), lt(requests.id, after.id)))
    : undefined
  return db
    .select()
    .from(requests)
    .where(and('principalId' in owner ? eq(requests.principalId, owner.principalId) : eq(requests.userId, owner.userId), older))
    .orderBy(desc(requests.createdAt), desc(requests.id))
    .limit(limit)
}

export async function openRequestIdsOf(db: Db, where: { principalId?: string; userId?: string }): Promise<string[]> {
  const owner = where.principalId ? eq(requests.principalId, where.principalId) : eq(requests.userId, where.userId ?? '')
  const rows = await db
    .select({ id: requests.id })
    .from(requests)
    .where(and(owner, inArray(requests.status, [...OPEN_STATUSES])))
  return rows.map((r) => r.id)
}

/**
 * Moves what the user's tokens or grants `from` own to `to`: their requests (whatever their
 * status), those requests' reservations and the create idempotency keys
 * (`<principal>:create:<key>`), in one D1 batch, so it happens entirely or not at all. Returns
 * the ids of the requests moved.
 */
export async function transferOwnership(d1: D1Database, userId: string, from: string[], to: string): Promise<string[]> {
  const owners = JSON.stringify(from)
  const [moved] = await d1.batch<{ id: string }>([
    d1
      .prepare(
        'UPDATE requests SET principal_id = ?3 WHERE user_id = ?1 AND principal_id IN (SELECT value FROM json_each(?2)) RETURNING id',
      )
      .bind(userId, owners, to),
    d1
      .prepare('UPDATE reservations SET principal_id = ?3 WHERE user_id = ?1 AND principal_id IN (SELECT value FROM json_each(?2))')
      .bind(userId, owners, to),
    d1
      .prepare(
        `UPDATE OR IGNORE idempotency_keys SET scope_key = ?2 || substr(scope_key, instr(scope_key, ':'))
         WHERE substr(scope_key, 1, instr(scope_key, ':') - 1) IN (SELECT value FROM json_each(?1))`,
      )
      .bind(owners, to),
  ])
  return (moved?.results ?? []).map((row) => row.id)
}

/** The user's requests that any of `principalIds` owns, newest first (at most `limit`). */
export async function requestsOwnedBy(db: Db, userId: string, principalIds: string[], limit: number): Promise<RequestRow[]> {
  if (principalIds.length === 0) return []
  return db
    .select()
    .from(requests)
    .where(and(eq(requests.userId, userId), inArray(requests.principalId, principalIds)))
    .orderBy(desc(requests.createdAt), desc(requests.id))
    .limit(limit)
}

/** Whether the user ever had a request (the setup checklist's last step). */
export async function userHasRequests(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: requests.id }).from(requests).where(eq(requests.userId, userId)).limit(1)
  return row !== undefined
}
