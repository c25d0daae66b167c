// Revisions of a request that its owner saw on the approval page (the spec as shown then).
import { and, desc, eq, gt, lt } from 'drizzle-orm'
import type { Db } from './client'
import { requests, seenRevisions } from './schema'

export interface SeenRevision {
  revision: number
  spec: unknown
  approvedAt: number | null
}

/** Records that the owner saw this revision; the first sighting is kept. */
export async function recordSeenRevision(db: Db, requestId: string, revision: number, spec: unknown, now: number): Promise<void> {
  await db.insert(seenRevisions).values({ requestId, revision, spec, seenAt: now }).onConflictDoNothing()
}

/** The owner approved this revision (seen on the page they approved it from). */
export async function markRevisionApproved(db: Db, requestId: string, revision: number, now: number): Promise<void> {
  await db
    .update(seenRevisions)
    .set({ approvedAt: now })
    .where(and(eq(seenRevisions.requestId, requestId), eq(seenRevisions.revision, revision)))
}

/** Seen revisions older than `revision`, newest first. */
export async function seenRevisionsBefore(db: Db, requestId: string, revision: number): Promise<SeenRevision[]> {
  return db
    .select({ revision: seenRevisions.revision, spec: seenRevisions.spec, approvedAt: seenRevisions.approvedAt })
    .from(seenRevisions)
    .where(and(eq(seenRevisions.requestId, requestId), lt(seenRevisions.revision, revision)))
    .orderBy(desc(seenRevisions.revision))
}

/** Revisions of the principal's requests its user approved after `since` (ms), newest first. */
export async function approvedSince(
  db: Db,
  owner: { userId: string; principalId: string },
  since: number,
): Promise<{ requestId: string; revision: number }[]> {
  return db
    .select({ requestId: seenRevisions.requestId, revision: seenRevisions.revision })
    .from(seenRevisions)
    .innerJoin(requests, eq(requests.id, seenRevisions.requestId))
    .where(and(eq(requests.userId, owner.userId), eq(requests.principalId, owner.principalId), gt(seenRevisions.approvedAt, since)))
    .orderBy(desc(seenRevisions.approvedAt))
    .limit(20)
}
