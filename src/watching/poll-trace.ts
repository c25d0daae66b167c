// Opt-in lines for the benchmark (POLL_TRACE = "on"; `npm run bench` sets it); off, they cost
// nothing. `do-call`: one per Durable Object invocation (class, method, wall time), so the
// benchmark counts invocations. `poll-trace`: one per availability poll — when its alarm fired,
// how many storage rows the run wrote (SQLite's own count, so nothing is missed), whether the
// slots changed, whether the platform was checked (a find, or the calendar's answer standing for
// one; not a run that only waited for the budget or primed a new subscriber), and when it asked to fire next. Poll lag is one line's `nextAt` against the
// next line's `firedAt` for the same object.

export function traceCall(env: { POLL_TRACE?: string }, object: string, method: string, startedAt: number, id?: string): void {
  if (env.POLL_TRACE !== 'on') return
  console.log(`do-call ${JSON.stringify({ c: object, m: method, ms: Date.now() - startedAt, ...(id ? { id } : {}) })}`)
}

export type PollTrace = (line: { ok: boolean; checked: boolean; changed: boolean; nextAt: number | null; pushed: number }) => void

export function startPollTrace(env: { POLL_TRACE?: string }, sql: SqlStorage, id: string): PollTrace | null {
  if (env.POLL_TRACE !== 'on') return null
  const firedAt = Date.now()
  const before = rowsWritten(sql)
  return (line) => {
    console.log(`poll-trace ${JSON.stringify({ id, firedAt, rowsWritten: rowsWritten(sql) - before, ...line })}`)
  }
}

function rowsWritten(sql: SqlStorage): number {
  return sql.exec<{ n: number }>('SELECT total_changes() AS n').one().n
}
