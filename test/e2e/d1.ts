// Writes into the running service's local D1, for data no page can create yet (an alert from
// the watcher). Goes through wrangler, as a developer would.
import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { promisify } from 'node:util'
import { inject } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')

export async function executeSql(sql: string): Promise<void> {
  const args = [
    'node_modules/wrangler/bin/wrangler.js',
    'd1',
    'execute',
    'DB',
    '--local',
    '--persist-to',
    inject('statePath'),
    '-c',
    'wrangler.toml',
    '--command',
    sql,
  ]
  await promisify(execFile)(process.execPath, args, { cwd: ROOT, env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' } })
}

/** SQL string literal. */
export function literal(value: string): string {
  return `'${value.replaceAll("'", "''")}'`
}
