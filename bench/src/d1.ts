// The service's local D1 database, read and written the way a developer would: through
// `wrangler d1 execute --local` on the same --persist-to state the running service uses.
import { writeFileSync } from 'node:fs'
import { z } from 'zod'
import { wranglerSync } from './processes'

/**
 * The running service holds the same SQLite files open; a statement from this second process
 * may find the database busy for a moment. Such a statement is simply run again.
 */
function retryingBusy<T>(run: () => T): T {
  for (let attempt = 1; ; attempt++) {
    try {
      return run()
    } catch (err) {
      const busy = /SQLITE_BUSY|database is locked|session commit token/.test(String(err))
      if (!busy || attempt >= 8) throw err
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250 * attempt)
    }
  }
}

export class LocalD1 {
  constructor(private readonly statePath: string) {}

  #base() {
    return ['d1', 'execute', 'DB', '--local', '--persist-to', this.statePath, '-c', 'wrangler.toml', '--env', 'bench']
  }

  migrate(): void {
    wranglerSync(['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', this.statePath, '-c', 'wrangler.toml', '--env', 'bench'])
  }

  /** Runs many statements from a file (one transaction per statement batch, as wrangler does). */
  runFile(file: string, sql: string): void {
    writeFileSync(file, sql)
    wranglerSync([...this.#base(), '--file', file, '--yes'])
  }

  run(sql: string): void {
    retryingBusy(() => wranglerSync([...this.#base(), '--command', sql]))
  }

  query<S extends z.ZodType>(sql: string, row: S): z.output<S>[] {
    const out = retryingBusy(() => wranglerSync([...this.#base(), '--command', sql, '--json']))
    const parsed = z.array(z.object({ results: z.array(row) })).parse(JSON.parse(out))
    return parsed.flatMap((p) => p.results)
  }
}

/** A SQL string literal. */
export const literal = (value: string) => `'${value.replaceAll("'", "''")}'`
