// Approval happens only on the service's own page, by the signed-in owner, for the exact
// revision the page showed. No API route or tool reaches this. The page that follows reads the
// request afresh, so approving answers only where the request now stands, and builds no view.
import type { Status } from '../core/status'
import { dbOf } from '../db/client'
import { AppError } from '../errors'
import { type Deps, requestObject } from '../runtime/deps'
import { loadRequest } from './load'

export interface Approved {
  id: string
  /** `active`, or already `awaiting_verification` or `confirmed` when a table was found at once. */
  status: Status
  revision: number
}

type ApprovalDeps = Pick<Deps, 'env' | 'db' | 'now'>

export async function approveRequest(
  deps: ApprovalDeps | { env: Cloudflare.Env; now?: number },
  input: { requestId: string; revision: number; userId: string },
): Promise<Approved> {
  const full: ApprovalDeps = 'db' in deps ? deps : { env: deps.env, db: dbOf(deps.env.DB), now: deps.now ?? Date.now() }
  await loadRequest(full, input.requestId, { userId: input.userId })
  const result = await requestObject(full.env, input.requestId).approve(input.revision, full.now)
  if (!result.ok) throw new AppError(result.refusal.code, result.refusal.message)
  const { id, status, revision } = result.state
  return { id, status, revision }
}
