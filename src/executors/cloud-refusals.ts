// Which account calls the platform refuses from the service's own network, per user, learnt from
// its answers: a `blocked` outcome (the CDN's refusal, blocks.ts) on a sign-in, a refresh, the
// details, the book call or the reservation list made from the cloud is remembered; the same call
// answered from the cloud forgets it. Never guessed from anything else (docs/decisions/platform-account.md).
// Settings says so, and the executor (executor-readiness.ts) answers `platform_refuses_cloud`; the user may
// then choose to book from their paired device, which stays their choice.
import { type CloudRefusalRow, clearCloudRefusal, cloudRefusalsOf, type RefusedCall, recordCloudRefusal } from '../db/cloud-refusals'
import type { Deps } from '../runtime/deps'

export type { RefusedCall }

/** The calls a booking from the cloud needs (sign-in and refresh only keep the session). */
export const BOOKING_CALLS: readonly RefusedCall[] = ['details', 'book', 'reservations']

/** What a call from the cloud ended with, as far as refusals go. */
export type CloudAnswer = { kind: 'blocked'; signal: string } | { kind: 'answered' } | { kind: 'unclear' }

/**
 * Remembers or forgets `call` for the user by the platform's answer to it from the cloud: a
 * block is remembered; any answer from the platform itself (a success, a wrong password, a
 * rejected token) forgets; no answer at all (a timeout) says nothing either way.
 */
export async function noteCloudAnswer(deps: Deps, userId: string, call: RefusedCall, answer: CloudAnswer): Promise<void> {
  if (answer.kind === 'blocked') {
    console.warn(`platform.cloud_refused ${JSON.stringify({ call, signal: answer.signal })}`)
    await recordCloudRefusal(deps.db, userId, call, answer.signal, deps.now)
  } else if (answer.kind === 'answered') {
    await clearCloudRefusal(deps.db, userId, call)
  }
}

/** An outcome's meaning for the memory: `blocked` is the CDN; `unavailable` may be anything; the rest came from the platform. */
export function cloudAnswerOf(outcome: { kind: string; signal?: string }): CloudAnswer {
  if (outcome.kind === 'blocked') return { kind: 'blocked', signal: outcome.signal ?? 'blocked' }
  if (outcome.kind === 'unavailable' || outcome.kind === 'unknown') return { kind: 'unclear' }
  return { kind: 'answered' }
}

/**
 * A book call ends `unknown` when the CDN answered it (it probably booked nothing, but nothing
 * says so: the booking is verified as any unclear one); the client says so in its detail
 * ("blocked: …", src/platform/client.ts). Only that is a refusal of the book call.
 */
export function bookAnswerOf(outcome: { kind: string; detail?: string }): CloudAnswer {
  if (outcome.kind === 'unknown' && outcome.detail?.startsWith('blocked: ')) return { kind: 'blocked', signal: outcome.detail.slice(9) }
  if (outcome.kind === 'unknown') return { kind: 'unclear' }
  return { kind: 'answered' }
}

export async function cloudRefusals(deps: Deps, userId: string): Promise<CloudRefusalRow[]> {
  return cloudRefusalsOf(deps.db, userId)
}
