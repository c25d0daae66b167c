// The request object's storage: its state, the outbox of effects that must complete (an alert,
// the index mirror, a subscription, an offer check), and its one alarm. A decision is persisted
// in one atomic write (no await between the writes); the outbox entries are removed once done.
// While the outbox is not empty the alarm comes back soon, so a crash loses no effect.
import { alarmFor } from './decide'
import type { Effect } from './events'
import { mustComplete } from './events'
import type { RequestState } from './state'
import { STATE_VERSION, upgradeState } from './state-upgrade'
import type { Decision } from './step'

export interface OutboxEntry {
  id: string
  effect: Effect
}

export interface Stored {
  state: RequestState | null
  outbox: OutboxEntry[]
  alarm: number | null
}

const STATE_KEY = 'state'
const OUTBOX_KEY = 'outbox'
/** The shape version of the stored state (state-upgrade.ts); written with every state. */
const VERSION_KEY = 'stateVersion'
/** How soon an effect that did not complete is tried again. */
const OUTBOX_RETRY_MS = 10_000

let sequence = 0

export class RequestStorage {
  constructor(private readonly storage: DurableObjectStorage) {}

  async read(): Promise<Stored> {
    const [got, alarm] = await Promise.all([this.storage.get<unknown>([STATE_KEY, OUTBOX_KEY, VERSION_KEY]), this.storage.getAlarm()])
    const state = got.get(STATE_KEY) as RequestState | undefined
    const version = (got.get(VERSION_KEY) as number | undefined) ?? 0
    return { state: state ? upgradeState(state, version) : null, outbox: (got.get(OUTBOX_KEY) as OutboxEntry[] | undefined) ?? [], alarm }
  }

  /** Persists the decision and the effects that must complete; returns their outbox entries. */
  async commit(stored: Stored, decision: Decision, now: number): Promise<OutboxEntry[]> {
    const added = decision.effects.filter(mustComplete).map((effect) => ({ id: `${now}-${++sequence}`, effect }))
    const writes: Promise<unknown>[] = []
    if (decision.state !== stored.state) writes.push(this.storage.put({ [STATE_KEY]: decision.state, [VERSION_KEY]: STATE_VERSION }))
    if (added.length > 0) writes.push(this.storage.put(OUTBOX_KEY, [...stored.outbox, ...added]))
    writes.push(this.#arm(stored.alarm, decision.alarmAt, stored.outbox.length + added.length > 0, now))
    await Promise.all(writes)
    return added
  }

  /** Removes the entries that completed and arms the alarm for the state as stored now. */
  async settle(done: readonly string[], now: number): Promise<void> {
    const { state, outbox, alarm } = await this.read()
    const left = outbox.filter((e) => !done.includes(e.id))
    const writes: Promise<unknown>[] = []
    if (left.length !== outbox.length) writes.push(left.length > 0 ? this.storage.put(OUTBOX_KEY, left) : this.storage.delete(OUTBOX_KEY))
    writes.push(this.#arm(alarm, state ? alarmFor(state) : null, left.length > 0, now))
    await Promise.all(writes)
  }

  /** Issued with no await before it, so it joins the same atomic write as the state. */
  #arm(current: number | null, alarmAt: number | null, outboxPending: boolean, now: number): Promise<void> {
    const wanted = Math.min(alarmAt ?? Number.POSITIVE_INFINITY, outboxPending ? now + OUTBOX_RETRY_MS : Number.POSITIVE_INFINITY)
    if (wanted === Number.POSITIVE_INFINITY) return current === null ? Promise.resolve() : this.storage.deleteAlarm()
    return current === wanted ? Promise.resolve() : this.storage.setAlarm(wanted)
  }
}
