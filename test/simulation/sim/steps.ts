// What the simulated users and assistants do between alarm phases: create requests (sometimes
// retrying with the same Idempotency-Key), approve some, update some after approval, stop some
// (preferably while a booking is being verified, then ask again for the same dinner), and let
// time pass for a few (their expiry moves into the past).
import { env, runInDurableObject } from 'cloudflare:test'
import { requestObject } from '../../../src/runtime/deps'
import { type Dinner, type SimSpec, specFor, variantOf } from './plan'
import type { Rng } from './random'
import { type ApiAnswer, approve, createVia, recordOf, type SimRequest, stopVia, updateVia } from './requests'

export interface StepStats {
  answers: Map<string, number>
  serverErrors: string[]
  idempotencyBreaks: number
  approvedOnce: number
  updatedAfterApproval: number
  stoppedMidVerification: number
  replacedAfterStop: number
  expiredByTime: number
}

export const newStepStats = (): StepStats => ({
  answers: new Map(),
  serverErrors: [],
  idempotencyBreaks: 0,
  approvedOnce: 0,
  updatedAfterApproval: 0,
  stoppedMidVerification: 0,
  replacedAfterStop: 0,
  expiredByTime: 0,
})

function note(stats: StepStats, what: string, answer: ApiAnswer): void {
  const label = `${what} ${answer.status}${answer.body.code ? ` ${answer.body.code}` : ''}`
  stats.answers.set(label, (stats.answers.get(label) ?? 0) + 1)
  if (answer.status >= 500) stats.serverErrors.push(label)
}

/** One create as an assistant makes it; sometimes the same call twice at once (a retry). */
export async function create(rng: Rng, dinner: Dinner, stats: StepStats, again?: SimSpec): Promise<SimRequest | null> {
  const fresh = specFor(rng, dinner, again ? 'auto_book' : rng.chance(0.65) ? 'auto_book' : 'alert_only', rng.chance(0.1))
  // Asked again after a stop: the same dates and venues, the dinner's whole window.
  const spec = again ? { ...fresh, dates: again.dates, venue_ids: again.venue_ids } : fresh
  const key = `sim-${crypto.randomUUID()}`
  const neverApprove = rng.chance(0.2)
  const retried = rng.chance(0.15)
  const answers = await Promise.all(retried ? [createVia(dinner, spec, key), createVia(dinner, spec, key)] : [createVia(dinner, spec, key)])
  for (const a of answers) note(stats, 'create', a)
  const ids = new Set(answers.flatMap((a) => (a.status === 201 && a.body.id ? [a.body.id] : [])))
  if (ids.size > 1) stats.idempotencyBreaks += 1
  const made = answers.find((a) => a.status === 201)
  return made ? recordOf(dinner, spec, made, neverApprove) : null
}

/** Approvals, updates, stops and the passage of time, for the requests that exist so far. */
export async function mutate(rng: Rng, requests: SimRequest[], stats: StepStats, replacements: SimRequest[]): Promise<void> {
  for (const r of requests) {
    const spec = r.specs.get(r.revision)
    if (!spec) continue
    if (r.status === 'needs_approval' && !r.neverApprove && rng.chance(0.6)) {
      if (await approve(r)) stats.approvedOnce += 1
    } else if ((r.status === 'active' || r.status === 'needs_approval') && rng.chance(0.06)) {
      const wasApproved = r.approvals.length > 0
      const answer = await updateVia(r, variantOf(rng, r.dinner, spec), `sim-${crypto.randomUUID()}`)
      note(stats, 'update', answer)
      if (answer.status === 200 && wasApproved) stats.updatedAfterApproval += 1
    } else if (r.status === 'awaiting_verification' && rng.chance(0.35)) {
      const answer = await stopVia(r)
      note(stats, 'stop', answer)
      if (answer.status === 200) {
        stats.stoppedMidVerification += 1
        // "Stop the first, then ask again": the sanctioned way to change an auto_book dinner.
        if (rng.chance(0.6)) replacements.push(r)
      }
    } else if (r.status === 'active' || r.status === 'needs_approval') {
      // Two separate draws: a stop, else (rarely) the expiry passes.
      const stopNow = rng.chance(0.02)
      if (stopNow) {
        note(stats, 'stop', await stopVia(r))
      } else if (rng.chance(0.02)) {
        await expireNow(r.id)
        stats.expiredByTime += 1
      }
    }
  }
}

/** Time passes for one request: its expiry is now in the past (and so is any verification window). */
export async function expireNow(id: string): Promise<void> {
  await runInDurableObject(requestObject(env, id), async (_instance, state) => {
    const stored = await state.storage.get<{ expiresAt: number; attempt: { verifyUntil: number } | null }>('state')
    if (!stored) return
    const past = Date.now() - 1
    const attempt = stored.attempt ? { ...stored.attempt, verifyUntil: Math.min(stored.attempt.verifyUntil, past) } : null
    await state.storage.put('state', { ...stored, expiresAt: Math.min(stored.expiresAt, past), attempt })
  })
}
