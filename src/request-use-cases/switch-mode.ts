// The diner switches a request between "alert me" and "book for me" on its page (the request's
// object decides: src/request-aggregate/decide-mode.ts). Switching to booking is approval of the
// exact revision the page showed, so only the signed-in owner reaches it, as for approval.
import { AppError } from '../errors'
import type { RequestState } from '../request-aggregate/state'
import { type Deps, requestObject } from '../runtime/deps'
import { loadRequest } from './load'

export async function switchMode(
  deps: Pick<Deps, 'env' | 'db' | 'now'>,
  input: { requestId: string; userId: string; revision: number; mode: 'alert_only' | 'auto_book' },
): Promise<RequestState> {
  await loadRequest(deps, input.requestId, { userId: input.userId })
  const result = await requestObject(deps.env, input.requestId).switchMode({ revision: input.revision, mode: input.mode, now: deps.now })
  if (!result.ok) throw new AppError(result.refusal.code, result.refusal.message)
  return result.state
}
