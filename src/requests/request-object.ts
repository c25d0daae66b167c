// One Durable Object per service request: the source of truth for its status and revision,
// and the owner of its alarm. It loads, decides (with the pure functions of state.ts),
// persists, mirrors the result into the D1 index, and arms the next alarm.
import { DurableObject } from 'cloudflare:workers'
import { mirrorState } from '../db/requests'
import { windowsOf } from './rules'
import type { RequestSpec } from './schemas'
import {
  applyUpdate,
  canMove,
  initialState,
  isOpen,
  refuseApproval,
  refuseStop,
  refuseUpdate,
  touch,
  TRACE_LIMIT,
  type Refusal,
  type RequestRecord,
  type RequestState,
} from './state'

export type ObjectResult = { ok: true; state: RequestState; replayed?: boolean } | { ok: false; refusal: Refusal }

/** An update's Idempotency-Key (scoped to this request and its owner) and body hash. */
export interface UpdateKey {
  key: string
  bodyHash: string
}
type SeenKeys = Record<string, { bodyHash: string; at: number }>
const UPDATE_KEYS_KEY = 'updateKeys'
const UPDATE_KEY_TTL_MS = 24 * 60 * 60 * 1000

const keyConflict: Refusal = {
  code: 'idempotency_conflict',
  message: 'This Idempotency-Key was already used with a different request body. Use a new key for a different request.',
}
const STATE_KEY = 'state'
const MIRROR_PENDING_KEY = 'mirrorPending'
const MIRROR_RETRY_MS = 5_000

export class RequestObject extends DurableObject<Cloudflare.Env> {
  /** Creates the request from its index record, or returns it as it is if it exists already. */
  async ensure(record: RequestRecord): Promise<RequestState> {
    const existing = await this.#load()
    if (existing) return existing
    const state = initialState(record)
    state.trace.push({
      at: record.createdAt,
      message: state.status === 'needs_approval' ? 'Created; waiting for the user to approve it.' : 'Created; watching for tables.',
    })
    await this.#persist(state, false)
    return state
  }

  async read(): Promise<RequestState | null> {
    return this.#load()
  }

  /** What an earlier update with this key did: a replay, a conflict, or nothing (a new key). */
  async replayUpdate(idem: UpdateKey, now: number): Promise<ObjectResult | null> {
    const seen = (await this.#seenKeys(now))[idem.key]
    if (!seen) return null
    if (seen.bodyHash !== idem.bodyHash) return { ok: false, refusal: keyConflict }
    return { ok: true, state: await this.#require(), replayed: true }
  }

  async update(input: { revision: number; spec: RequestSpec; expiresAt: number; now: number; idem: UpdateKey }): Promise<ObjectResult> {
    // Checked again here, where calls are serialized: two concurrent retries apply once.
    const replay = await this.replayUpdate(input.idem, input.now)
    if (replay) return replay
    const state = await this.#require()
    const refusal = refuseUpdate(state, input.revision)
    if (refusal) return { ok: false, refusal }
    const next = applyUpdate(state, input.spec, input.expiresAt, input.now)
    const seen = await this.#seenKeys(input.now)
    await this.ctx.storage.put(UPDATE_KEYS_KEY, { ...seen, [input.idem.key]: { bodyHash: input.idem.bodyHash, at: input.now } })
    if (!next) return { ok: true, state }
    this.#trace(next, input.now, `Updated to revision ${next.revision}${next.status === 'needs_approval' ? '; waiting for approval' : ''}.`)
    await this.#persist(next, true)
    return { ok: true, state: next }
  }

  async #seenKeys(now: number): Promise<SeenKeys> {
    const all = (await this.ctx.storage.get<SeenKeys>(UPDATE_KEYS_KEY)) ?? {}
    return Object.fromEntries(Object.entries(all).filter(([, v]) => now - v.at < UPDATE_KEY_TTL_MS))
  }

  async approve(revision: number, now: number): Promise<ObjectResult> {
    const state = await this.#require()
    const refusal = refuseApproval(state, revision)
    if (refusal) return { ok: false, refusal }
    const next: RequestState = {
      ...state,
      status: 'active',
      approvedRevision: revision,
      statusReason: null,
      updatedAt: touch(state, now),
    }
    this.#trace(next, now, `Approved revision ${revision} by the user; watching for tables.`)
    await this.#persist(next, false)
    return { ok: true, state: next }
  }

  async stop(now: number): Promise<ObjectResult> {
    const state = await this.#require()
    const refusal = refuseStop(state)
    if (refusal) return { ok: false, refusal }
    if (state.status === 'stopped') return { ok: true, state }
    return { ok: true, state: await this.#close(state, 'stopped', 'Stopped; monitoring ended. Any reservation still stands.', now) }
  }

  /** The token, grant or platform connection behind the request was revoked. */
  async revoke(reason: string, now: number): Promise<RequestState | null> {
    const state = await this.#load()
    if (!state || !isOpen(state.status)) return state
    return this.#close(state, 'revoked', reason, now)
  }

  override async alarm(): Promise<void> {
    const now = Date.now()
    if (await this.ctx.storage.get<boolean>(MIRROR_PENDING_KEY)) {
      const current = await this.#load()
      if (current) await this.#mirror(current, true)
    }
    const state = await this.#load()
    if (!state) return
    if (isOpen(state.status) && now >= state.expiresAt) {
      await this.#close(state, 'expired', 'Expired; nothing was booked.', now)
      return
    }
    await this.#arm(state)
  }

  async #close(state: RequestState, status: RequestState['status'], reason: string, now: number): Promise<RequestState> {
    if (!canMove(state.status, status)) return state
    const next: RequestState = { ...state, status, statusReason: reason, updatedAt: touch(state, now) }
    this.#trace(next, now, reason)
    await this.#persist(next, false)
    return next
  }

  #trace(state: RequestState, at: number, message: string): void {
    state.trace = [...state.trace, { at, message }].slice(-TRACE_LIMIT)
  }

  async #load(): Promise<RequestState | null> {
    return (await this.ctx.storage.get<RequestState>(STATE_KEY)) ?? null
  }

  async #require(): Promise<RequestState> {
    const state = await this.#load()
    if (!state) throw new Error('request object used before it was created')
    return state
  }

  /** Storage first (the truth), then the D1 mirror, then the alarm. */
  async #persist(state: RequestState, specChanged: boolean): Promise<void> {
    await this.ctx.storage.put(STATE_KEY, state)
    await this.#mirror(state, specChanged)
    await this.#arm(state)
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

  async #arm(state: RequestState): Promise<void> {
    const mirrorPending = (await this.ctx.storage.get<boolean>(MIRROR_PENDING_KEY)) === true
    const wakeAt = isOpen(state.status) ? state.expiresAt : null
    const at = mirrorPending ? Math.min(wakeAt ?? Infinity, Date.now() + MIRROR_RETRY_MS) : wakeAt
    if (at === null) {
      await this.ctx.storage.deleteAlarm()
      return
    }
    const current = await this.ctx.storage.getAlarm()
    if (current !== at) await this.ctx.storage.setAlarm(at)
  }
}
