// The firewall's blocks: one client (by User-Agent) or every client ('') answered by the CDN/WAF
// instead of the API until a given instant.
import { type BlockInput, type BlockStyle, blockSchema } from '../schemas'

const EVERYONE = ''

export function setBlock(sql: SqlStorage, input: BlockInput, now: number): void {
  const b = blockSchema.parse(input)
  const client = b.userAgent ?? EVERYONE
  if (b.forMs === 0) sql.exec('DELETE FROM blocks WHERE client = ?', client)
  else sql.exec('INSERT OR REPLACE INTO blocks (client, until, style) VALUES (?, ?, ?)', client, now + b.forMs, b.style)
}

/** How the firewall answers this client now, or null when it lets the call through. */
export function blockOf(sql: SqlStorage, userAgent: string, now: number): BlockStyle | null {
  const row = sql
    .exec<{ style: BlockStyle }>(
      'SELECT style FROM blocks WHERE client IN (?, ?) AND until > ? ORDER BY client DESC LIMIT 1',
      userAgent,
      EVERYONE,
      now,
    )
    .toArray()[0]
  return row?.style ?? null
}
