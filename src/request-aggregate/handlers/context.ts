// What each effect handler gets: the user's account executor for this step
// (executors/account-step.ts), fresh deps, and where to put work that may finish after the
// answer (webhooks).
import type { AccountExecutor } from '../../executors/account-executor'
import type { Deps } from '../../runtime/deps'
import type { Effect, RequestEvent } from '../events'

export interface EffectStep {
  env: Cloudflare.Env
  deps: Deps
  background: Promise<unknown>[]
  /** Where the user's platform calls go (cloud, device or offline), chosen once per user and step. */
  accountOf(userId: string): Promise<AccountExecutor>
}

export type EffectOf<K extends Effect['kind']> = Extract<Effect, { kind: K }>

/** One effect carried out; what the world answered comes back as the next events. */
export type Handler<K extends Effect['kind']> = (step: EffectStep, effect: EffectOf<K>) => Promise<RequestEvent[]>
