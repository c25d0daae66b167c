// What a poll reads from the D1 index: the user's platform connection and the watched venues
// (names for the trace, release rules for the cadence). One database serves every request's
// polls, so each request object keeps a working connection's facts for a few minutes and most
// polls read nothing from D1. What a stale answer can cost is small and bounded:
//  - a connection that broke meanwhile: finding tables needs no user token, and booking reads
//    the connection afresh (platformSessionOf), so the request only learns of it up to the TTL
//    later, or at once when its own booking hit the broken token (it forgets the facts then);
//  - a disconnect revokes the user's open requests directly, so nothing polls on;
//  - a missing or broken connection is never kept: the next poll looks again.

import type { Db } from '../../db/client'
import { type ConnectionRow, findConnection } from '../../db/connections'
import { findVenues, type VenueRow } from '../../db/venues'

export interface IndexFacts {
  connection: ConnectionRow | undefined
  venues: VenueRow[]
}

export const INDEX_FACTS_TTL_MS = 5 * 60 * 1000

interface Kept {
  at: number
  key: string
  facts: IndexFacts
}

/** A per-object memo of the index facts; `forget` drops it (e.g. after a rejected token). */
export function indexFactsMemo() {
  let kept: Kept | null = null
  return {
    async read(db: Db, userId: string, venueIds: number[], now: number): Promise<IndexFacts> {
      const key = `${userId}|${venueIds.join(',')}` // an update may change the venues
      if (kept && kept.key === key && now - kept.at < INDEX_FACTS_TTL_MS) return kept.facts
      const [connection, venues] = await Promise.all([findConnection(db, userId), findVenues(db, venueIds)])
      const facts = { connection, venues }
      kept = connection?.state === 'ok' ? { at: now, key, facts } : null
      return facts
    },
    forget(): void {
      kept = null
    },
  }
}

export type IndexFactsMemo = ReturnType<typeof indexFactsMemo>
