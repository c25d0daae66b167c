// Why the service cannot book a venue, in the words every page uses: preview and create warnings,
// the approval page (src/requests/venue-warnings.ts) and restaurant search (restaurants.ts).
import type { BookingBlocker } from '../platform/api'

export const BLOCKER_WORDS: Record<BookingBlocker, string> = {
  recaptcha: 'its booking asks for a captcha',
  tock: "its tables are Tock's",
  concierge: 'it books only through a concierge',
  transfers: 'its reservations are made as transfers',
  other_platform: 'it books on another platform',
  closed: 'the platform says it is closed until a later date',
}
