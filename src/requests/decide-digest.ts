// The digest part of decide(), pure: a waiting digest is sent once it is due (once at a time):
// on its alarm, or in the step that found its tables when there is nothing to gather. The
// runner's answer (sent, or held by the user's gap) settles it. Only alerts go through here;
// booking never waits for a digest.

import { DAYS_LIMIT, digestAlarm, gatherFor, tablesTold } from '../alerts/digest'
import { type Decided, recipientOf, stateOnly } from './decide-watch'
import type { Effect, RequestEvent } from './events'
import { isOpen, type RequestState, transition } from './state'

/** Adds the send to a step when the waiting digest is due. */
export function flushDigest(step: Decided, now: number): Decided {
  const { state } = step
  const due = digestAlarm(state)
  if (!state.digest || due === null || now < due || !isOpen(state.status)) return step
  const send: Effect = {
    kind: 'send_digest',
    to: recipientOf(state),
    tables: state.digest.tables,
    ...(state.digest.more ? { more: state.digest.more } : {}),
    lastSentAt: state.digestSentAt,
    knownDays: state.digestDays,
  }
  const next = transition(state, { patch: { digest: { ...state.digest, sendingAt: now } } }, now)
  return { ...step, state: next, effects: [...step.effects, send] }
}

type DigestAnswer = Extract<RequestEvent, { kind: 'digest_sent' | 'digest_held' }>

export function digestAnswered(state: RequestState, event: DigestAnswer, now: number): Decided {
  const pending = state.digest
  if (event.kind === 'digest_held') {
    if (!pending) return stateOnly(state)
    return stateOnly(transition(state, { patch: { digest: { ...pending, sendingAt: null, dueAt: Math.max(event.until, now) } } }, now))
  }
  const sent = new Set(event.keys)
  // Tables that arrived while it was sent wait for the next one.
  const left = pending?.tables.filter((t) => !sent.has(t.key)) ?? []
  const more = moreLeft(pending?.more, event.more)
  const digest = left.length > 0 ? { tables: left, ...(more ? { more } : {}), dueAt: now + gatherFor(state), sendingAt: null } : null
  const digestDays = [...new Set([...state.digestDays, ...event.days])].slice(-DAYS_LIMIT)
  const told = tablesTold(event.keys, event.more)
  const restaurants = new Set(event.days.map((d) => d.split(':')[0])).size
  const dates = new Set(event.days.map((d) => d.split(':')[1])).size
  const trace = `Alerted the user: ${count(told, 'table')} at ${count(restaurants, 'restaurant')} on ${count(dates, 'date')}, in one alert.`
  return stateOnly(transition(state, { trace, patch: { digest, digestSentAt: event.at, digestDays } }, now))
}

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** The counted tables still waiting after a send: those counted while it was under way. */
function moreLeft(waiting: Record<string, number> | undefined, sent: Record<string, number> | undefined) {
  const left = Object.entries(waiting ?? {})
    .map(([day, n]) => [day, n - (sent?.[day] ?? 0)] as const)
    .filter(([, n]) => n > 0)
  return left.length > 0 ? Object.fromEntries(left) : undefined
}
