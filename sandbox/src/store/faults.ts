// Call counting and fault injection, per endpoint. Every platform call passes through `enter`.
import { type Endpoint, type Fault, type FaultInput, faultSchema } from '../schemas'

type FaultRow = { seq: number; endpoint: string; kind: string; remaining: number; hang_ms: number }

export function injectFault(sql: SqlStorage, input: FaultInput): void {
  const f = faultSchema.parse(input)
  sql.exec('INSERT INTO faults (endpoint, kind, remaining, hang_ms) VALUES (?, ?, ?, ?)', f.endpoint, f.kind, f.count, f.hangMs)
}

/** Calls by second are kept this long: a whole benchmark run. */
const CALL_SECONDS_KEPT = 4 * 3600

/** Counts the call (in the second it arrived) and returns the fault it must suffer, if one is queued for the endpoint. */
export function enter(sql: SqlStorage, endpoint: Endpoint, now = Date.now(), client = ''): Fault | null {
  sql.exec('INSERT INTO calls (endpoint, count) VALUES (?, 1) ON CONFLICT (endpoint) DO UPDATE SET count = count + 1', endpoint)
  const second = Math.floor(now / 1000)
  const fresh = sql
    .exec<{ count: number }>(
      'INSERT INTO call_seconds (second, count) VALUES (?, 1) ON CONFLICT (second) DO UPDATE SET count = count + 1 RETURNING count',
      second,
    )
    .one()
  if (fresh.count === 1) sql.exec('DELETE FROM call_seconds WHERE second < ?', second - CALL_SECONDS_KEPT)
  sql.exec(
    'INSERT INTO client_call_seconds (second, client, count) VALUES (?, ?, 1) ON CONFLICT (second, client) DO UPDATE SET count = count + 1',
    second,
    client,
  )
  if (fresh.count === 1) sql.exec('DELETE FROM client_call_seconds WHERE second < ?', second - CALL_SECONDS_KEPT)
  const row = sql.exec<FaultRow>('SELECT * FROM faults WHERE endpoint = ? ORDER BY seq LIMIT 1', endpoint).toArray()[0]
  if (!row) return null
  if (row.remaining <= 1) sql.exec('DELETE FROM faults WHERE seq = ?', row.seq)
  else sql.exec('UPDATE faults SET remaining = remaining - 1 WHERE seq = ?', row.seq)
  return faultSchema.parse({ endpoint: row.endpoint, kind: row.kind, count: row.remaining, hangMs: row.hang_ms })
}

/** The calls that arrived in each second since `since` (epoch ms), oldest first: [second, count]; only `client`'s when given (its User-Agent). */
export function callsPerSecond(sql: SqlStorage, since: number, client?: string): [number, number][] {
  const rows =
    client === undefined
      ? sql.exec<{ second: number; count: number }>(
          'SELECT second, count FROM call_seconds WHERE second >= ? ORDER BY second',
          Math.floor(since / 1000),
        )
      : sql.exec<{ second: number; count: number }>(
          'SELECT second, count FROM client_call_seconds WHERE second >= ? AND client = ? ORDER BY second',
          Math.floor(since / 1000),
          client,
        )
  return rows.toArray().map((r) => [r.second, r.count])
}

export function callCounts(sql: SqlStorage): Partial<Record<Endpoint, number>> {
  const counts: Partial<Record<Endpoint, number>> = {}
  for (const r of sql.exec<{ endpoint: Endpoint; count: number }>('SELECT endpoint, count FROM calls')) counts[r.endpoint] = r.count
  return counts
}
