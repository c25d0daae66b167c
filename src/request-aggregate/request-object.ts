// One Durable Object per service request: the source of truth for its status and revision, and
// the owner of its alarm (expiry, verification, retries). Every call is an event: load the
// state, decide (decide.ts, pure), persist once, run the effects (effects.ts), arm the
// alarm. What the effects bring back (the platform's answers) is the next event, decided on the
// state as stored by then, so a stop or update that arrives during a network wait always wins.
import { DurableObject } from 'cloudflare:workers'
import { traceCall } from '../watching/poll-trace'
import { decide, earlierUpdate } from './decide'
import { effectRunner } from './effects'
import type { Heard, RequestEvent, UpdateKey } from './events'
import { RequestStorage } from './request-storage'
import type { Spec } from './spec'
import { initialState, type Refusal, type RequestRecord, type RequestState } from './state'
import type { Reply } from './step'

export type ObjectResult = { ok: true; state: RequestState; replayed?: boolean } | { ok: false; refusal: Refusal }

interface Handled {
  state: RequestState | null
  reply: Reply
}

export class RequestObject extends DurableObject<Cloudflare.Env> {
  #store = new RequestStorage(this.ctx.storage)

  /** Creates the request from its index record, or returns it as it is if it exists already. */
  async ensure(record: RequestRecord): Promise<RequestState> {
    const handled = await this.#handle('ensure', { kind: 'created' }, Date.now(), initialState(record))
    if (!handled.state) throw new Error('a created request has a state')
    return handled.state
  }

  async read(): Promise<RequestState | null> {
    traceCall(this.env, 'request', 'read', Date.now())
    return (await this.#store.read()).state
  }

  /** What an earlier update with this key did: a replay, a conflict, or nothing (a new key). */
  async replayUpdate(idem: UpdateKey, now: number): Promise<ObjectResult | null> {
    const state = await this.read()
    const earlier = state ? earlierUpdate(state, idem, now) : null
    return state && earlier ? resultOf({ state, reply: earlier }) : null
  }

  async update(input: { revision: number; spec: Spec; expiresAt: number; now: number; idem: UpdateKey }): Promise<ObjectResult> {
    const { now, ...event } = input
    return resultOf(await this.#handle('update', { kind: 'update', ...event }, now))
  }

  async approve(revision: number, now: number): Promise<ObjectResult> {
    return resultOf(await this.#handle('approve', { kind: 'approve', revision }, now))
  }

  /**
   * The diner pressed "Book this table" on the service's page (decide-press.ts): the press is
   * carried out in this call, as far as the platform answers; the state tells its outcome.
   */
  async press(input: { slotKey: string; terms: string; acceptedFee: number | null; now: number }): Promise<RequestState | null> {
    const { now, ...event } = input
    return (await this.#handle('press', { kind: 'press', ...event }, now)).state
  }

  /** The diner switched between "alert me" and "book for me" on the request's page (decide-mode.ts). */
  async switchMode(input: { revision: number; mode: 'alert_only' | 'auto_book'; now: number }): Promise<ObjectResult> {
    const { now, ...event } = input
    return resultOf(await this.#handle('switchMode', { kind: 'diner_mode', ...event }, now))
  }

  async stop(now: number): Promise<ObjectResult> {
    return resultOf(await this.#handle('stop', { kind: 'stop' }, now))
  }

  /** The token, grant or platform connection behind the request was revoked. */
  async revoke(reason: string, now: number): Promise<RequestState | null> {
    return (await this.#handle('revoke', { kind: 'revoke', reason }, now)).state
  }

  /**
   * The assistant connection that owns the request moved to a new OAuth grant (the same app
   * reconnected for the same user): bookings from now on are recorded for the new owner.
   */
  async transferOwner(from: string[], to: string, now: number): Promise<RequestState | null> {
    return (await this.#handle('transferOwner', { kind: 'transfer_owner', from, to }, now)).state
  }

  /** The user's platform connection works again (connecting wakes the requests waiting for it). */
  async connected(): Promise<void> {
    await this.#handle('connected', { kind: 'connection', state: 'ok', reconnectNotice: null }, Date.now())
  }

  /** The user changed where platform calls run: an active request subscribes again there. */
  async rewatch(execution: 'cloud' | 'user_device'): Promise<void> {
    await this.#handle('rewatch', { kind: 'connection', state: 'ok', reconnectNotice: null, rewatch: execution }, Date.now())
  }

  /** The user books from a paired device and none is connected any more: watching pauses. */
  async deviceOffline(): Promise<void> {
    await this.#handle('deviceOffline', { kind: 'connection', state: 'device_offline', reconnectNotice: null }, Date.now())
  }

  /** An availability object's news: new matching slots, or checks that fail or work again. */
  async hear(event: Heard): Promise<Reply> {
    return (await this.#handle('hear', event, Date.now())).reply
  }

  override async alarm(): Promise<void> {
    await this.#handle('alarm', { kind: 'alarm' }, Date.now(), undefined, true)
  }

  /**
   * Decides the event, persists, runs the effects, and decides what they answered, until no
   * answer is left. `seed` creates the request when nothing is stored (and only then). The alarm
   * also runs again the outbox effects an earlier call could not complete.
   */
  async #handle(method: string, event: RequestEvent, now: number, seed?: RequestState, retryOutbox = false): Promise<Handled> {
    const started = Date.now()
    let id: string | undefined
    try {
      const handled = await this.#decideAll(event, now, seed, retryOutbox)
      id = handled.state?.id
      return handled
    } finally {
      traceCall(this.env, 'request', method, started, id)
    }
  }

  async #decideAll(event: RequestEvent, now: number, seed: RequestState | undefined, retryOutbox: boolean): Promise<Handled> {
    const runner = effectRunner(this.env)
    const events = [event]
    let handled = null as Handled | null
    for (let next = events.shift(); next; next = events.shift()) {
      const stored = await this.#store.read()
      if (seed && stored.state && !handled) return { state: stored.state, reply: {} }
      const state = stored.state ?? (handled ? null : seed)
      if (!state) return { state: null, reply: { watching: false } }
      const at = handled ? Date.now() : now
      const decision = decide(state, next, at)
      const entries = [...(await this.#store.commit(stored, decision, at)), ...(retryOutbox && !handled ? stored.outbox : [])]
      const done = await runner.run([
        ...decision.effects,
        ...entries.filter((e) => !decision.effects.includes(e.effect)).map((e) => e.effect),
      ])
      for (const work of done.background) this.ctx.waitUntil(work)
      const completed = entries.filter((e) => !done.failed.includes(e.effect)).map((e) => e.id)
      await this.#store.settle(completed, Date.now())
      events.push(...done.events)
      // The first step answers the caller; any later step may ask for the slots again.
      const redeliver: boolean = handled?.reply.redeliver === true || decision.reply.redeliver === true
      handled = { state: decision.state, reply: { ...(handled?.reply ?? decision.reply), ...(redeliver ? { redeliver } : {}) } }
    }
    return handled ?? { state: null, reply: {} }
  }
}

function resultOf(handled: Handled): ObjectResult {
  const { state, reply } = handled
  if (reply.refusal) return { ok: false, refusal: reply.refusal }
  if (!state) throw new Error('request object used before it was created')
  return { ok: true, state, ...(reply.replayed ? { replayed: true } : {}) }
}
