// The digest part of decide(), pure: a waiting digest is sent once it is due (once at a time):
// on its alarm, or in the step that found its tables when there is nothing to gather. The
// runner's answer (what it told, and the repeats the user's gap left out) settles it. Only alerts
// go through here; booking never waits for a digest.

import { digestAlarm, gatherFor, tablesTold } from '../alerts/digest'
import { recipientOf } from './decide-watch'
import { digestSending, digestSent } from './digest-state'
import type { Effect, RequestEvent } from './events'
import { isOpen, type RequestState, transition } from './state'
import { type Decided, stateOnly } from './step'

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
  }
  const next = transition(state, { patch: digestSending(state.digest, now) }, now)
  return { ...step, state: next, effects: [...step.effects, send] }
}

type DigestAnswer = Extract<RequestEvent, { kind: 'digest_sent' }>

export function digestAnswered(state: RequestState, event: DigestAnswer, now: number): Decided {
  const patch = digestSent(state, event, gatherFor(state), now)
  if (event.keys.length === 0) return stateOnly(transition(state, { patch }, now))
  const told = tablesTold(event.keys, event.more)
  const restaurants = new Set(event.days.map((d) => d.split(':')[0])).size
  const dates = new Set(event.days.map((d) => d.split(':')[1])).size
  const trace = `Alerted the user: ${count(told, 'table')} at ${count(restaurants, 'restaurant')} on ${count(dates, 'date')}, in one alert.`
  return stateOnly(transition(state, { trace, patch }, now))
}

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
