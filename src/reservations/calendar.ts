// Calendars of a user's confirmed reservations: one reservation as an .ics download (the owner,
// signed in), and the feed a calendar app subscribes to with a secret URL. The secret is shown
// once, when the user makes or resets the feed; only its hash is stored, so a reset is the way
// to get a new URL, and it ends the old one.
import { calendarFeedByHash, calendarFeedOfUser, replaceCalendarFeed } from '../db/calendar-feeds'
import { reservationOfUser, verifiedReservationsOfUser } from '../db/reservations'
import { findVenues } from '../db/venues'
import { derivedHmacKey } from '../lib/derived-hmac-key'
import { sha256Hex } from '../lib/random'
import type { Deps } from '../runtime/deps'
import { reservationsCalendar } from './ics'
import type { Reservation } from './schema'
import { reservationView } from './view'

const FEED_PREFIX = 'twc_'

function host(deps: Deps): string {
  return new URL(deps.baseUrl).host
}

async function viewsOf(deps: Deps, rows: Awaited<ReturnType<typeof verifiedReservationsOfUser>>) {
  const venues = await findVenues(deps.db, [...new Set(rows.map((r) => r.venueId))])
  return rows.map((row) =>
    reservationView(
      row,
      venues.find((v) => v.venueId === row.venueId),
    ),
  )
}

/** One verified reservation of the user as iCalendar, or null (not theirs, not verified). */
export async function reservationIcs(deps: Deps, userId: string, reservationId: number): Promise<string | null> {
  const row = await reservationOfUser(deps.db, reservationId, userId)
  if (!row?.verified) return null
  return reservationsCalendar('Tablewatch reservation', await viewsOf(deps, [row]), host(deps))
}

/** Every verified reservation of the feed's owner, or null for an unknown (or reset) secret. */
export async function feedIcs(deps: Deps, secret: string): Promise<string | null> {
  if (!secret.startsWith(FEED_PREFIX) || secret.length > 100) return null
  const feed = await calendarFeedByHash(deps.db, await sha256Hex(secret))
  if (!feed) return null
  const rows = await verifiedReservationsOfUser(deps.db, feed.userId)
  return reservationsCalendar('Tablewatch reservations', await viewsOf(deps, rows), host(deps))
}

export interface FeedUrls {
  https: string
  webcal: string
}

function urlsOf(deps: Deps, secret: string): FeedUrls {
  const https = `${deps.baseUrl}/calendar/feed/${secret}.ics`
  return { https, webcal: https.replace(/^https?:/, 'webcal:') }
}

/** Makes the user's feed, or replaces its secret: returns the new URLs. */
export async function resetCalendarFeed(deps: Deps, userId: string): Promise<FeedUrls> {
  const secret = await feedSecret(deps.env.PLATFORM_TOKEN_KEY, userId, deps.now)
  await replaceCalendarFeed(deps.db, userId, await sha256Hex(secret), deps.now)
  return urlsOf(deps, secret)
}

/**
 * The user's current feed URLs, to show again on the Calendar page: the secret is
 * derived from the server's key, the user and when the feed was made, so only its hash is stored
 * and a reset (a new time) still ends the old address. A feed made before (a random secret)
 * cannot be shown again: null, and the page offers a reset.
 */
export async function currentFeedUrls(deps: Deps, userId: string): Promise<FeedUrls | null> {
  const feed = await calendarFeedOfUser(deps.db, userId)
  if (!feed) return null
  const secret = await feedSecret(deps.env.PLATFORM_TOKEN_KEY, userId, feed.createdAt)
  return (await sha256Hex(secret)) === feed.tokenHash ? urlsOf(deps, secret) : null
}

async function feedSecret(keySecret: string, userId: string, madeAt: number): Promise<string> {
  const mac = await crypto.subtle.sign(
    'HMAC',
    await derivedHmacKey(keySecret, 'tablewatch calendar feed v1'),
    new TextEncoder().encode(`${userId}:${madeAt}`),
  )
  return `${FEED_PREFIX}${[...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, '0')).join('')}`
}

/** The user's verified reservations from today on (in each venue's zone), soonest first. */
export async function upcomingReservations(deps: Deps, userId: string): Promise<Reservation[]> {
  const rows = (await verifiedReservationsOfUser(deps.db, userId)).filter((r) => r.startsAt >= deps.now - 3 * 3_600_000)
  return viewsOf(deps, rows)
}

/** When the user's current feed URL was made, or null when there is none. */
export async function calendarFeedSince(deps: Deps, userId: string): Promise<number | null> {
  return (await calendarFeedOfUser(deps.db, userId))?.createdAt ?? null
}
