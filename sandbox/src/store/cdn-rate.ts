// The CDN's rate rule: above a number of calls a second from one client, the CDN (Imperva) answers
// with its block instead of the API for a while (docs/platform.md, "Rates": no
// published limit; background pollers keep to about 1 a second, `xunhuang/yumyum-v2`; datacenter
// addresses are blocked first, [idx 22674018902]). Off unless set through the control API.
import { type CdnRateInput, cdnRateSchema } from '../schemas'
import { setBlock } from './blocks'

const KEY = 'cdn_rate'

export function setCdnRate(sql: SqlStorage, input: CdnRateInput): void {
  const rate = cdnRateSchema.parse(input)
  if (rate.callsPerSecond === null) sql.exec('DELETE FROM settings WHERE key = ?', KEY)
  else sql.exec('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)', KEY, JSON.stringify(rate))
}

export function cdnRateOf(sql: SqlStorage) {
  const row = sql.exec<{ value: string }>('SELECT value FROM settings WHERE key = ?', KEY).toArray()[0]
  return row ? cdnRateSchema.parse(JSON.parse(row.value)) : null
}

/**
 * Counts one call of `client` at `now` in `recent` (its calls of the last second, kept in memory by
 * the world) and, when the calls of the last second go above the rate, blocks that client for
 * `blockForMs`. True when this call tipped it over.
 */
export function countCall(sql: SqlStorage, recent: number[], client: string, now: number): boolean {
  const rate = cdnRateOf(sql)
  while (recent.length > 0 && (recent[0] ?? 0) <= now - 1000) recent.shift()
  recent.push(now)
  if (!rate || rate.callsPerSecond === null || recent.length <= rate.callsPerSecond) return false
  setBlock(sql, { userAgent: client || undefined, forMs: rate.blockForMs, style: rate.style }, now)
  return true
}
