// What each effect handler gets: the step's account calls (executors/account-step.ts), fresh
// deps, and where to put work that may finish after the answer (webhooks).
import type { AccountStep } from '../../executors/account-step'
import type { Deps } from '../../runtime/deps'
import type { Effect, RequestEvent } from '../events'

export interface EffectStep extends AccountStep {
  env: Cloudflare.Env
  d: Deps
  background: Promise<unknown>[]
}

export type EffectOf<K extends Effect['kind']> = Extract<Effect, { kind: K }>

/** One effect carried out; what the world answered comes back as the next events. */
export type Handler<K extends Effect['kind']> = (step: EffectStep, effect: EffectOf<K>) => Promise<RequestEvent[]>
