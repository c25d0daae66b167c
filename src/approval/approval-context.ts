// What the approval page shows beside the spec: the version to compare with (the one
// the user approved, else the newest one they saw before), which assistant asked, and the
// platform account a booking would use. Recording what the owner saw is done here too.

import { isConnectionPrincipal } from '../auth/oauth-connection'
import { clientNameOfConnection, listGrants } from '../auth/oauth-grants'
import { listAccessTokens } from '../auth/pat'
import { approvedSince, markRevisionApproved, recordSeenRevision, seenRevisionsBefore } from '../db/seen-revisions'
import { connectionStatus } from '../executors/connection'
import type { RequestState } from '../request-aggregate/state'
import { RequestSpec } from '../request-use-cases/schemas'
import type { Deps } from '../runtime/deps'

export interface ApprovalContext {
  /** The earlier version to compare with, if the owner saw one. */
  earlier: { revision: number; spec: RequestSpec; approved: boolean } | null
  /** The token's or OAuth client's name; null when it no longer exists. */
  assistant: string | null
  /** The connected platform account's name; null when none is connected. */
  platformAccount: string | null
}

async function assistantName(deps: Deps, state: RequestState): Promise<string | null> {
  if (isConnectionPrincipal(state.principalId)) return clientNameOfConnection(deps.env, state.userId, state.principalId)
  if (state.principalId.startsWith('grant_')) {
    const grants = await listGrants(deps.env, state.userId)
    return grants.find((g) => `grant_${g.id}` === state.principalId)?.clientName ?? null
  }
  const tokens = await listAccessTokens(deps.db, state.userId)
  const token = tokens.find((t) => t.id === state.principalId)
  return token ? `${token.name} (personal access token)` : null
}

async function earlierVersion(deps: Deps, state: RequestState): Promise<ApprovalContext['earlier']> {
  const seen = await seenRevisionsBefore(deps.db, state.id, state.revision)
  const approved = seen.find((s) => s.approvedAt !== null)
  const base = approved ?? seen[0]
  if (!base) return null
  const spec = RequestSpec.safeParse(base.spec)
  return spec.success ? { revision: base.revision, spec: spec.data, approved: approved !== undefined } : null
}

export async function approvalContext(deps: Deps, state: RequestState): Promise<ApprovalContext> {
  const [earlier, assistant, connection] = await Promise.all([
    earlierVersion(deps, state),
    assistantName(deps, state),
    connectionStatus(deps, state.userId),
  ])
  return { earlier, assistant, platformAccount: connection.connected ? connection.displayName : null }
}

/** The owner approved this revision: later versions are compared with it. */
export async function recordApproved(deps: Deps, requestId: string, revision: number): Promise<void> {
  await markRevisionApproved(deps.db, requestId, revision, deps.now)
}

/** The owner looked at this revision on the approval page. */
export async function recordSeen(deps: Deps, state: RequestState): Promise<void> {
  await recordSeenRevision(deps.db, state.id, state.revision, state.spec, deps.now)
}

/**
 * The revisions of the principal's requests its user approved in the last `withinMs`: what an
 * MCP client that asked for those approvals may be told is complete (src/mcp/elicitation.ts).
 */
export async function approvedRecently(
  deps: Deps,
  principal: { userId: string; principalId: string },
  withinMs: number,
): Promise<{ requestId: string; revision: number }[]> {
  return approvedSince(deps.db, principal, deps.now - withinMs)
}
