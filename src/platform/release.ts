// The platform has no structured release time. `/2/config` gives `lead_time_in_days`; the time of
// day is only stated in the venue's free-text notes ("need_to_know"), e.g. "Reservations open 14
// days in advance at 9:00 AM". We read the first clock time that follows the word "at" in a
// sentence that speaks of days ahead and of opening/releasing ("Kitchen closes at 10 PM" or
// "walk-ins available at 5 PM" are not release rules); no such sentence → no known release time.
import type { ReleaseRule } from './api'

const RELEASE_SENTENCE = /[^.]*\b(?:open|opens|released?|releases|available|drop|drops|book(?:able|ings?)?)\b[^.]*/gi
const CLOCK = /\bat\s+(?:(midnight)|(noon)|(\d{1,2})(?::(\d{2}))?\s*(am|pm)?)(?![\d:])/i

/** HH:MM (24 h) stated in a release sentence of `text`, or null. */
export function releaseTimeIn(text: string): string | null {
  const plain = text.replace(/\b([ap])\.\s?m\.?/gi, '$1m') // "9 a.m." must not end a sentence
  for (const sentence of plain.match(RELEASE_SENTENCE) ?? []) {
    if (!/\bdays?\b/i.test(sentence)) continue
    const m = CLOCK.exec(sentence)
    if (!m) continue
    if (m[1]) return '00:00'
    if (m[2]) return '12:00'
    let hour = Number(m[3])
    const minute = m[4] ? Number(m[4]) : 0
    const meridiem = m[5]?.toLowerCase()
    if (meridiem === 'pm' && hour < 12) hour += 12
    if (meridiem === 'am' && hour === 12) hour = 0
    if (!meridiem && !m[4]) continue // "at 9" alone is too vague to act on
    if (hour > 23 || minute > 59) continue
    return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`
  }
  return null
}

/** The rule when both halves are known: lead days from /2/config, time from the venue's notes. */
export function releaseRuleOf(leadTimeInDays: number | null | undefined, notes: string[]): ReleaseRule | null {
  if (leadTimeInDays == null || leadTimeInDays < 0) return null
  for (const text of notes) {
    const time = releaseTimeIn(text)
    if (time) return { daysInAdvance: leadTimeInDays, time }
  }
  return null
}
