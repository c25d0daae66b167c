// Runs the effects decide() asks for and returns what the world answered as the next events:
// one handler per effect kind (handlers/), all sharing one step's account executors, so where a
// user's calls go (cloud, device or offline) is chosen once per user and step
// (executors/account-step.ts) and no handler asks. The runner only runs: it decides nothing, and nothing here reads
// or changes the request's state (answers go back to decide() as events).
import { accountStep } from '../executors/account-step'
import { depsOf } from '../runtime/deps'
import type { Effect, RequestEvent } from './events'
import { notify, sendDigest } from './handlers/alerts'
import { book, checkOffer, verify } from './handlers/booking'
import type { EffectStep, Handler } from './handlers/context'
import { mirror, subscribe, unsubscribe } from './handlers/watching'

export interface EffectsDone {
  events: RequestEvent[]
  /** Effects that threw: the object keeps those that must complete in its outbox. */
  failed: Effect[]
  /** Work that may finish after the answer (webhooks). */
  background: Promise<unknown>[]
}

const HANDLERS: { [K in Effect['kind']]: Handler<K> } = {
  notify,
  send_digest: sendDigest,
  mirror,
  subscribe,
  unsubscribe,
  check_offer: checkOffer,
  book,
  verify,
}

export function effectRunner(env: Cloudflare.Env) {
  const account = accountStep()
  const background: Promise<unknown>[] = []

  async function one(effect: Effect): Promise<RequestEvent[]> {
    const deps = depsOf(env)
    const step: EffectStep = { env, deps, background, accountOf: (userId) => account.accountOf(deps, userId) }
    const handler = HANDLERS[effect.kind] as Handler<Effect['kind']>
    return handler(step, effect)
  }

  return {
    async run(effects: Effect[]): Promise<EffectsDone> {
      const settled = await Promise.allSettled(effects.map(one))
      const failed = effects.filter((e, i) => {
        const result = settled[i]
        if (result?.status !== 'rejected') return false
        console.error(`effect ${e.kind} failed`, result.reason instanceof Error ? result.reason.message : String(result.reason))
        return true
      })
      const events = settled.flatMap((r) => (r.status === 'fulfilled' ? r.value : []))
      return { events, failed, background: background.splice(0) }
    },
  }
}
