// The press sub-state of a request: the tables its alerts told, kept with what booking one needs
// (the platform's slot and its money terms), and the diner's one press of "Book this table" while
// it is carried out, with its outcome for the page that shows it. Stored flat in the request's
// state (state.ts); decide-press.ts changes it through the reducers here.
import type { Slot } from '../platform/api'

/** A told table the diner may press "Book this table" for: the slot as the platform offered it. */
export interface PressableTable {
  slot: Slot
  venueName: string
  venuePage: string | null
  startsAt: number
  seenAt: number
}

export type PressOutcome =
  /** The platform is asked about the table (details, the account's reservations). */
  | 'checking'
  /** The book call went out; the request is awaiting_verification. */
  | 'booking'
  /** Booked, and the platform account shows it. */
  | 'booked'
  /** The platform no longer offers the table: nothing was booked. */
  | 'taken'
  /** The platform's terms differ from those the page showed: nothing was booked; the page shows the new ones. */
  | 'terms_changed'
  /** The platform sign-in ended or was refused: nothing was booked; reconnect first. */
  | 'reconnect'
  /** Not booked, for `reason`. */
  | 'refused'

export interface Press {
  slotKey: string
  /** When the diner pressed. */
  at: number
  /** The cancellation fee per person the diner accepted on the page (above the request's limit), or null. */
  acceptedFee: number | null
  outcome: PressOutcome
  /** Why nothing was booked, in words (refused, terms_changed). */
  reason: string | null
}

export interface PressState {
  /** Told tables by slot key, the newest PRESSABLE_LIMIT. */
  pressable: Record<string, PressableTable>
  /** The last press and its outcome; null before the first. */
  press: Press | null
}

const PRESSABLE_LIMIT = 40

export const nothingPressed = (): PressState => ({ pressable: {}, press: null })

/** These tables were told: each may be pressed (the newest kept, a table seen again replaces its entry). */
export function pressableOf(state: Pick<PressState, 'pressable'>, tables: Record<string, PressableTable>): Pick<PressState, 'pressable'> {
  const entries = [...Object.entries(state.pressable).filter(([key]) => !(key in tables)), ...Object.entries(tables)]
  return { pressable: Object.fromEntries(entries.slice(-PRESSABLE_LIMIT)) }
}

/** The press is being carried out or has ended. */
export const pressAt = (press: Press): Pick<PressState, 'press'> => ({ press })

/** A press whose outcome is still to come: a second press of any table waits for it. */
export const pressInFlight = (press: Press | null): boolean => press?.outcome === 'checking' || press?.outcome === 'booking'
