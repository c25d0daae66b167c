// The platform's web pages, for links in alerts. The venue page is
// https://resy.com/cities/<location.url_slug>/venues/<url_slug> (both slugs from /3/venue), and
// it takes the day and the party as `date=YYYY-MM-DD&seats=N` (public clients build these links
// the same way: docs/platform.md, "Venues and search"). No parameter for a time of day is known, so a
// link opens the venue's day for that party, where the table's time is listed.

const WEB = 'https://resy.com'

/** The venue's page, or null when the platform gave either slug no value. */
export function venuePageUrl(venue: { citySlug: string | null; urlSlug: string | null }): string | null {
  if (!venue.citySlug || !venue.urlSlug) return null
  return `${WEB}/cities/${encodeURIComponent(venue.citySlug)}/venues/${encodeURIComponent(venue.urlSlug)}`
}

/**
 * That venue's page on a day for a party. Without a venue page (a venue added before the city slug
 * was kept, or one the platform gave no slugs), the home page with the venue's id: a fallback no
 * public source documents, which at worst opens the platform's front page.
 */
export function venueDayUrl(venuePage: string | null, venueId: number, day: string, partySize: number): string {
  const dayAndParty = { date: day, seats: String(partySize) }
  if (venuePage) return `${venuePage}?${new URLSearchParams(dayAndParty)}`
  return `${WEB}/?${new URLSearchParams({ venue_id: String(venueId), ...dayAndParty })}`
}
