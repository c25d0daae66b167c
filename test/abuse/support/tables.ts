// D1 as a whole: row counts of every table (to prove a batch of refusals changed nothing)
// and a full dump (to prove a secret was never stored in the clear).
import { env } from 'cloudflare:test'
import { z } from 'zod'

/** The tables the brief names; a refused call must never add or remove a row in them. */
export const WATCHED_TABLES = ['requests', 'request_windows', 'idempotency_keys', 'reservations', 'notifications'] as const

const TableName = z.object({ name: z.string() })

export async function tableNames(): Promise<string[]> {
  const { results } = await env.DB.prepare(
    "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name <> 'd1_migrations' order by name",
  ).all()
  return results.map((row) => TableName.parse(row).name)
}

const Count = z.object({ n: z.number() })

/** Row counts of every table, the watched ones included. */
export async function rowCounts(): Promise<Record<string, number>> {
  const names = await tableNames()
  for (const table of WATCHED_TABLES) if (!names.includes(table)) throw new Error(`D1 has no table ${table}`)
  const rows = await env.DB.batch(names.map((name) => env.DB.prepare(`select count(*) as n from "${name}"`)))
  return Object.fromEntries(names.map((name, i) => [name, Count.parse(rows[i]?.results[0]).n]))
}

/** Every row of every table as JSON text, one entry per table. */
export async function dumpAllTables(): Promise<Record<string, string>> {
  const names = await tableNames()
  const rows = await env.DB.batch(names.map((name) => env.DB.prepare(`select * from "${name}"`)))
  return Object.fromEntries(names.map((name, i) => [name, JSON.stringify(rows[i]?.results ?? [])]))
}
