// An opt-in line per alarm run (POLL_TRACE = "on"; `npm run bench` sets it): when the alarm
// fired, how many storage rows the run wrote (SQLite's own count, so nothing is missed), whether
// the request's state changed (an idle poll changes nothing), and when it asked to fire next.
// Poll lag is one line's `nextAt` against the next line's `firedAt` for the same request.
// Off, it costs nothing.
export type PollTrace = (requestId: string | null) => Promise<void>

export async function startPollTrace(
  env: { POLL_TRACE?: string },
  storage: DurableObjectStorage,
  readState: () => Promise<unknown>,
): Promise<PollTrace | null> {
  if (env.POLL_TRACE !== 'on') return null
  const firedAt = Date.now()
  const before = rowsWritten(storage.sql)
  const stateBefore = JSON.stringify(await readState())
  return async (requestId) => {
    const nextAt = await storage.getAlarm()
    const changed = JSON.stringify(await readState()) !== stateBefore
    const line = { id: requestId, firedAt, rowsWritten: rowsWritten(storage.sql) - before, changed, nextAt }
    console.log(`poll-trace ${JSON.stringify(line)}`)
  }
}

function rowsWritten(sql: SqlStorage): number {
  return sql.exec<{ n: number }>('SELECT total_changes() AS n').one().n
}
