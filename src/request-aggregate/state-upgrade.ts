// Request states as stored by every version of the service. The object keeps the version of the
// shape beside the state (its own storage key, written in the same atomic write); each read
// passes the stored state through upgradeState, so a state written by older code loads in the
// current shape. A new shape adds STATE_VERSION + 1 and one step here, never a second path.
import { initialState, type RequestState } from './state'

/** The shape RequestState has today. Absent in storage: version 0 (before versions were kept). */
export const STATE_VERSION = 5

/** The shape of version 4: no told tables kept for a press. */
type Version4 = Omit<RequestState, 'pressable' | 'press'>

/** The shape of version 3: no unsettled attempt either. */
type Version3 = Omit<Version4, 'unsettled'> & { unsettled?: RequestState['unsettled'] }

/** The shape up to version 2: the restaurant-dates told, and no time per told slot. */
type Version2 = Omit<Version3, 'toldAt'> & { digestDays?: string[] }

/** Version 0 → 1: a state stored before a field existed gets that field's starting value. */
function fromVersion0(stored: Version2): Version2 {
  const fresh = initialState(stored)
  return {
    ...fresh,
    ...stored,
    watching: stored.watching ?? [],
    failingChecks: stored.failingChecks ?? {},
    checkingOffer: stored.checkingOffer ?? null,
    updateKeys: stored.updateKeys ?? {},
    expiryWarned: stored.expiryWarned ?? null,
    digest: stored.digest ?? null,
    digestSentAt: stored.digestSentAt ?? null,
  }
}

/**
 * Version 1 → 2: booking that waits for a reconnect, venues that cannot be booked, and an
 * attempt's card-on-file rule. An attempt decided before the rule existed never sends the card again.
 */
function fromVersion1(stored: Version2): Version2 {
  const attempt = stored.attempt
    ? {
        ...stored.attempt,
        cardOnFile: stored.attempt.cardOnFile ?? { allowed: false, why: 'the attempt was decided before card-on-file venues were known' },
        retriedWithCard: stored.attempt.retriedWithCard ?? false,
      }
    : null
  return { ...stored, attempt, reconnectToBook: stored.reconnectToBook ?? null, unbookableVenues: stored.unbookableVenues ?? {} }
}

/**
 * Version 2 → 3: the gap counts per slot from its last alert (docs/decisions/alerts.md). A slot
 * told before kept no time: it counts from the last alert, the latest it can have been told.
 */
function fromVersion2(stored: Version2): Version3 {
  const { digestDays: _days, ...rest } = stored
  const at = stored.digestSentAt ?? stored.updatedAt
  return { ...rest, toldAt: Object.fromEntries(stored.alerted.map((key) => [key, at])) }
}

/** Version 3 → 4: an attempt whose window closed unread is kept to be looked for; none was kept before. */
function fromVersion3(stored: Version3): Version4 {
  return { ...stored, unsettled: stored.unsettled ?? null }
}

/** Version 4 → 5: tables told before kept no slot, so they cannot be pressed; new ones can. */
function fromVersion4(stored: Version4): RequestState {
  return { ...stored, pressable: {}, press: null }
}

/**
 * The stored state in the current shape. A version newer than this code knows is refused: a
 * rolled-back deployment must not misread (and then overwrite) what a newer one wrote.
 */
export function upgradeState(stored: RequestState, version: number): RequestState {
  if (version > STATE_VERSION) throw new Error(`request state version ${version} is newer than this code (${STATE_VERSION})`)
  if (version >= STATE_VERSION) return stored
  if (version === 4) return fromVersion4(stored)
  if (version === 3) return fromVersion4(fromVersion3(stored))
  const v1 = version < 1 ? fromVersion0(stored) : stored
  const v2 = version < 2 ? fromVersion1(v1) : v1
  return fromVersion4(fromVersion3(fromVersion2(v2)))
}
