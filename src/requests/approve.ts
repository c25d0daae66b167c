// Approval happens only on the service's own page, by the signed-in owner, for the exact
// revision the page showed. No API route or tool reaches this.
import { AppError } from '../errors'
import { type Deps, depsOf, requestObject } from '../runtime/deps'
import { loadRequest } from './load'
import type { RequestView } from './schemas'
import { viewFor } from './view'

export async function approveRequest(
  deps: Deps | { env: Cloudflare.Env; now?: number },
  input: { requestId: string; revision: number; userId: string },
): Promise<RequestView> {
  const full = 'db' in deps ? deps : depsOf(deps.env, undefined, deps.now)
  await loadRequest(full, input.requestId, { userId: input.userId })
  const result = await requestObject(full.env, input.requestId).approve(input.revision, full.now)
  if (!result.ok) throw new AppError(result.refusal.code, result.refusal.message)
  return viewFor(full, result.state, null)
}
