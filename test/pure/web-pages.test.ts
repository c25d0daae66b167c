// The platform's web pages that alerts link to (src/platform/web-pages.ts).
import { describe, expect, it } from 'vitest'
import { venueDayUrl, venuePageUrl } from '../../src/platform/web-pages'

describe('links to the platform web site', () => {
  it("opens the venue's page under its city, on the table's day for the party", () => {
    const page = venuePageUrl({ citySlug: 'new-york-ny', urlSlug: 'juniper-and-vine' })
    expect(page).toBe('https://resy.com/cities/new-york-ny/venues/juniper-and-vine')
    expect(venueDayUrl(page, 60101, '2026-12-05', 4)).toBe(
      'https://resy.com/cities/new-york-ny/venues/juniper-and-vine?date=2026-12-05&seats=4',
    )
  })

  it('has no venue page without both slugs, and then falls back to the home page with the venue id', () => {
    expect(venuePageUrl({ citySlug: null, urlSlug: 'juniper-and-vine' })).toBeNull()
    expect(venuePageUrl({ citySlug: 'ny', urlSlug: null })).toBeNull()
    expect(venueDayUrl(null, 60101, '2026-12-05', 2)).toBe('https://resy.com/?venue_id=60101&date=2026-12-05&seats=2')
  })

  it('keeps slugs inside their path segment', () => {
    expect(venuePageUrl({ citySlug: 'ny/../x', urlSlug: 'a b' })).toBe('https://resy.com/cities/ny%2F..%2Fx/venues/a%20b')
  })
})
