// One Durable Object per service request: the source of truth for its status and revision,
// and the owner of its alarm. Every change goes through #update: a synchronous decision on
// the state as stored now (state.ts), persisted, then mirrored into the D1 index. The alarm
// runs the watcher (watch/engine.ts) and arms the next one.
import { DurableObject } from 'cloudflare:workers'
import { mirrorState } from '../db/requests'
import type { FindQuery } from '../platform/api'
import { availabilityName } from './availability-object'
import { depsOf } from './deps'
import { KEY_CONFLICT_MESSAGE } from './idempotency'
import { windowsOf } from './rules'
import type { RequestSpec } from './schemas'
import {
  applyUpdate,
  canMove,
  initialState,
  isOpen,
  type Refusal,
  type RequestRecord,
  type RequestState,
  refuseApproval,
  refuseStop,
  refuseUpdate,
  touch,
} from './state'
import { cadenceFrom } from './watch/cadence'
import { type WatchContext, withTrace } from './watch/context'
import { watchStep } from './watch/engine'
import { indexFactsMemo } from './watch/index-facts'
import { startPollTrace } from './watch/poll-trace'

export type ObjectResult = { ok: true; state: RequestState; replayed?: boolean } | { ok: false; refusal: Refusal }

/** An update's idempotency key (scoped to this request and its owner) and body hash. */
export interface UpdateKey {
  key: string
  bodyHash: string
}
type SeenKeys = Record<string, { bodyHash: string; at: number }>

const STATE_KEY = 'state'
const UPDATE_KEYS_KEY = 'updateKeys'
const MIRROR_PENDING_KEY = 'mirrorPending'
const UPDATE_KEY_TTL_MS = 24 * 60 * 60 * 1000
const MIRROR_RETRY_MS = 5_000
const keyConflict: Refusal = {
  code: 'idempotency_conflict',
  message: KEY_CONFLICT_MESSAGE,
}

export class RequestObject extends DurableObject<Cloudflare.Env> {
  /** When the watcher last looked at the platform: kept in memory so idle polls write nothing. */
  #checkedAt: number | null = null
  /** The index facts a poll needs, kept in memory between polls (watch/index-facts.ts). */
  #indexFacts = indexFactsMemo()

  /** Creates the request from its index record, or returns it as it is if it exists already. */
  async ensure(record: RequestRecord): Promise<RequestState> {
    const existing = await this.read()
    if (existing) return existing
    const fresh = initialState(record)
    const message = fresh.status === 'needs_approval' ? 'Created; waiting for the user to approve it.' : 'Created; watching for tables.'
    // `current` is `fresh` only when nothing was stored yet.
    const state = await this.#update((current) => (current === fresh ? withTrace(fresh, record.createdAt, message) : null), fresh)
    // alert_only watches at once: the first poll runs right away.
    await this.#arm(state, state.status === 'active' ? Date.now() : state.expiresAt)
    return state
  }

  async read(): Promise<RequestState | null> {
    const state = await this.#load()
    if (!state || this.#checkedAt === null || (state.lastCheckedAt ?? 0) >= this.#checkedAt) return state
    return { ...state, lastCheckedAt: this.#checkedAt }
  }

  /** What an earlier update with this key did: a replay, a conflict, or nothing (a new key). */
  async replayUpdate(idem: UpdateKey, now: number): Promise<ObjectResult | null> {
    const seen = (await this.#seenKeys(now))[idem.key]
    if (!seen) return null
    if (seen.bodyHash !== idem.bodyHash) return { ok: false, refusal: keyConflict }
    return { ok: true, state: await this.#require(), replayed: true }
  }

  async update(input: { revision: number; spec: RequestSpec; expiresAt: number; now: number; idem: UpdateKey }): Promise<ObjectResult> {
    // Only storage reads before the decision, and no await between it and the write: two
    // concurrent retries of one update cannot both apply.
    const [current, seen] = await Promise.all([this.#require(), this.#seenKeys(input.now)])
    const earlier = seen[input.idem.key]
    if (earlier)
      return earlier.bodyHash === input.idem.bodyHash ? { ok: true, state: current, replayed: true } : { ok: false, refusal: keyConflict }
    const refusal = refuseUpdate(current, input.revision)
    if (refusal) return { ok: false, refusal }
    const keys: SeenKeys = { ...seen, [input.idem.key]: { bodyHash: input.idem.bodyHash, at: input.now } }
    const changed = applyUpdate(current, input.spec, input.expiresAt, input.now)
    if (!changed) {
      await this.ctx.storage.put(UPDATE_KEYS_KEY, keys)
      return { ok: true, state: current }
    }
    const next = withTrace(
      changed,
      input.now,
      `Updated to revision ${changed.revision}${changed.status === 'needs_approval' ? '; waiting for approval' : ''}.`,
    )
    await this.ctx.storage.put({ [STATE_KEY]: next, [UPDATE_KEYS_KEY]: keys })
    await this.#mirror(next, true)
    await this.#arm(next, next.status === 'active' ? Date.now() : next.expiresAt)
    return { ok: true, state: next }
  }

  async approve(revision: number, now: number): Promise<ObjectResult> {
    const outcome: { refusal: Refusal | null } = { refusal: null }
    const state = await this.#update((current) => {
      outcome.refusal = refuseApproval(current, revision)
      if (outcome.refusal) return null
      const next = { ...current, status: 'active' as const, approvedRevision: revision, statusReason: null, updatedAt: touch(current, now) }
      return withTrace(next, now, `Approved revision ${revision} by the user; watching for tables.`)
    })
    if (outcome.refusal) return { ok: false, refusal: outcome.refusal }
    await this.#arm(state, Date.now()) // start watching now
    return { ok: true, state }
  }

  async stop(now: number): Promise<ObjectResult> {
    const state = await this.#require()
    const refusal = refuseStop(state)
    if (refusal) return { ok: false, refusal }
    const next = await this.#close('stopped', 'Stopped; monitoring ended. Any reservation still stands.', now)
    return { ok: true, state: next }
  }

  /** The token, grant or platform connection behind the request was revoked. */
  async revoke(reason: string, now: number): Promise<RequestState | null> {
    const state = await this.#load()
    if (!state || !isOpen(state.status)) return state
    return this.#close('revoked', reason, now)
  }

  /**
   * The assistant connection that owns the request moved to a new OAuth grant (the same app
   * reconnected for the same user): bookings from now on are recorded for the new owner.
   */
  async transferOwner(from: string[], to: string, now: number): Promise<RequestState | null> {
    const state = await this.#load()
    if (!state || !from.includes(state.principalId)) return state
    return this.#update((current) => {
      if (!from.includes(current.principalId)) return null
      const moved = { ...current, principalId: to, updatedAt: touch(current, now) }
      return isOpen(current.status)
        ? withTrace(moved, now, 'The assistant reconnected; the request carries on under its new connection.')
        : moved
    })
  }

  override async alarm(): Promise<void> {
    const trace = await startPollTrace(this.env, this.ctx.storage, () => this.#load())
    if (await this.ctx.storage.get<boolean>(MIRROR_PENDING_KEY)) {
      const current = await this.#load()
      if (current) await this.#mirror(current, true)
    }
    const now = Date.now()
    const step = await watchStep(this.#watchContext(now))
    if (step.checkedAt !== null) this.#checkedAt = step.checkedAt
    const state = await this.#load()
    if (state) await this.#arm(state, step.nextAt)
    await trace?.(state?.id ?? null)
  }

  #watchContext(now: number): WatchContext {
    const deps = depsOf(this.env, undefined, now)
    return {
      deps,
      cadence: cadenceFrom(this.env),
      load: () => this.#load(),
      update: (change) => this.#update(change),
      availability: (query: FindQuery, maxAgeMs: number) =>
        this.env.AVAILABILITY.get(this.env.AVAILABILITY.idFromName(availabilityName(query))).slots(query, maxAgeMs),
      indexFacts: (userId, venueIds) => this.#indexFacts.read(deps.db, userId, venueIds, now),
      forgetIndexFacts: () => this.#indexFacts.forget(),
      background: (work) => this.ctx.waitUntil(work.catch((err: unknown) => console.error('background work failed', String(err)))),
    }
  }

  async #close(status: 'stopped' | 'revoked', reason: string, now: number): Promise<RequestState> {
    const state = await this.#update((current) => {
      if (current.status === status || !canMove(current.status, status)) return null
      return withTrace({ ...current, status, statusReason: reason, updatedAt: touch(current, now) }, now, reason)
    })
    // A booking in flight is still verified (and recorded if it landed); nothing else wakes it.
    await this.#arm(state, state.attempt ? Date.now() : null)
    return state
  }

  /**
   * The one way state changes: `change` decides synchronously on the stored state, so no other
   * call can interleave between the read and the write. `initial` seeds an empty object.
   */
  async #update(change: (current: RequestState) => RequestState | null, initial?: RequestState): Promise<RequestState> {
    const stored = await this.#load()
    const current = stored ?? initial
    if (!current) throw new Error('request object used before it was created')
    const next = change(current)
    if (!next) return current
    await this.ctx.storage.put(STATE_KEY, next)
    await this.#mirror(next, stored === null || JSON.stringify(stored.spec) !== JSON.stringify(next.spec))
    return next
  }

  async #load(): Promise<RequestState | null> {
    return (await this.ctx.storage.get<RequestState>(STATE_KEY)) ?? null
  }

  async #require(): Promise<RequestState> {
    const state = await this.#load()
    if (!state) throw new Error('request object used before it was created')
    return state
  }

  async #seenKeys(now: number): Promise<SeenKeys> {
    const all = (await this.ctx.storage.get<SeenKeys>(UPDATE_KEYS_KEY)) ?? {}
    return Object.fromEntries(Object.entries(all).filter(([, v]) => now - v.at < UPDATE_KEY_TTL_MS))
  }

  async #mirror(state: RequestState, specChanged: boolean): Promise<void> {
    try {
      await mirrorState(this.env.DB, state, specChanged ? windowsOf(state.spec) : null)
      await this.ctx.storage.delete(MIRROR_PENDING_KEY)
    } catch (err) {
      // The index is behind; the alarm retries so list, limits and overlap checks converge.
      console.error('request index mirror failed', state.id, err instanceof Error ? err.message : String(err))
      await this.ctx.storage.put(MIRROR_PENDING_KEY, true)
    }
  }

  /** Sets the one alarm: the wanted time, the expiry of an open request, or a mirror retry. */
  async #arm(state: RequestState, wanted: number | null): Promise<void> {
    const mirrorPending = (await this.ctx.storage.get<boolean>(MIRROR_PENDING_KEY)) === true
    const candidates = [wanted, isOpen(state.status) ? state.expiresAt : null, mirrorPending ? Date.now() + MIRROR_RETRY_MS : null].filter(
      (t): t is number => t !== null,
    )
    if (candidates.length === 0) {
      await this.ctx.storage.deleteAlarm()
      return
    }
    const at = Math.min(...candidates)
    if ((await this.ctx.storage.getAlarm()) !== at) await this.ctx.storage.setAlarm(at)
  }
}
