// How far a new user got with setting up: the platform connected, an assistant able
// to reach the account (a live token or an OAuth connection), and a first request. The pages
// show a checklist until all three are done.
import { listGrants } from '../auth/oauth-grants'
import { listAccessTokens } from '../auth/pat'
import { userHasRequests } from '../db/requests'
import { connectionStatus } from '../executors/connection'
import type { Deps } from '../runtime/deps'

export interface SetupProgress {
  platformConnected: boolean
  assistantConnected: boolean
  firstRequest: boolean
}

export async function setupProgress(deps: Deps, userId: string): Promise<SetupProgress> {
  const [connection, tokens, grants, firstRequest] = await Promise.all([
    connectionStatus(deps, userId),
    listAccessTokens(deps.db, userId),
    listGrants(deps.env, userId),
    userHasRequests(deps.db, userId),
  ])
  const liveToken = tokens.some((t) => t.revokedAt === null && t.expiresAt > deps.now)
  return { platformConnected: connection.connected, assistantConnected: liveToken || grants.length > 0, firstRequest }
}

export function setupDone(p: SetupProgress): boolean {
  return p.platformConnected && p.assistantConnected && p.firstRequest
}
