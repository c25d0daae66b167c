// A world's own release rules and release clock, for the release contest (bench/src/release-contest.ts)
// and the tests that learn rules: a venue may release new days at an instant of the world's
// choosing, stated in its notes or in no text at all (as for most real venues: docs/platform.md,
// "Calendar and release"), and the world's days may pass faster than real ones (a compressed
// clock), so that several release days pass in an hour. Only release instants, which days are on
// sale and whether a table's time has passed follow that clock; tokens, rates, call counts and the
// ledger keep the real one. Kept in the world's settings, so a reset forgets them.
import type { ReleaseRule, SandboxVenue } from '../model'
import { HOUSE_NOTES, venueById } from '../venues'

const RULE_KEY = (venueId: number) => `release_rule:${venueId}`
const CLOCK_KEY = 'release_clock'

export interface WorldReleaseRule {
  days: number
  /** HH:MM or HH:MM:SS, the venue's local time. */
  time: string
  /** Stated in the venue's notes (as a release sentence), or told nowhere. */
  stated: boolean
}

/** Sets (or, with null, clears) a venue's release rule in this world. */
export function setReleaseRule(sql: SqlStorage, venueId: number, rule: WorldReleaseRule | null): void {
  if (rule) sql.exec('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)', RULE_KEY(venueId), JSON.stringify(rule))
  else sql.exec('DELETE FROM settings WHERE key = ?', RULE_KEY(venueId))
}

function ruleOf(sql: SqlStorage, venueId: number): WorldReleaseRule | null {
  const row = sql.exec<{ value: string }>('SELECT value FROM settings WHERE key = ?', RULE_KEY(venueId)).toArray()[0]
  return row ? (JSON.parse(row.value) as WorldReleaseRule) : null
}

/** The venue as this world has it: its seeded self, with the world's release rule (and notes) when one is set. */
export function venueIn(sql: SqlStorage, venueId: number): SandboxVenue | undefined {
  const venue = venueById(venueId)
  const rule = venue ? ruleOf(sql, venueId) : null
  if (!venue || !rule) return venue
  const release: ReleaseRule = { days: rule.days, time: rule.time }
  const sentence = `Reservations open ${rule.days} days in advance at ${rule.time.slice(0, 5)}.`
  return { ...venue, release, notes: rule.stated ? `${sentence} ${HOUSE_NOTES}` : HOUSE_NOTES }
}

/** A day lasts `secondsPerDay` real seconds from `epoch` on (null: the real clock). */
export function setReleaseClock(sql: SqlStorage, clock: { epoch: number; secondsPerDay: number } | null): void {
  if (clock) sql.exec('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)', CLOCK_KEY, JSON.stringify(clock))
  else sql.exec('DELETE FROM settings WHERE key = ?', CLOCK_KEY)
}

/** The world's release clock at a real instant: the real one, or the compressed one when set. */
export function releaseTimeOf(sql: SqlStorage): (realMs: number) => number {
  const row = sql.exec<{ value: string }>('SELECT value FROM settings WHERE key = ?', CLOCK_KEY).toArray()[0]
  if (!row) return (ms) => ms
  const { epoch, secondsPerDay } = JSON.parse(row.value) as { epoch: number; secondsPerDay: number }
  const speed = 86_400 / secondsPerDay
  return (ms) => epoch + (ms - epoch) * speed
}
