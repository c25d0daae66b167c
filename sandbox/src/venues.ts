// Seeded, fictional venues: 54 in five cities and five time zones. Ids are stable so tests and
// the benchmark can name them. Release rules are stated only in the venue notes (as on the real
// platform) and in /2/config lead_time_in_days.
import type { BookingRule, Policy, ReleaseRule, SandboxVenue } from './model'

interface City {
  city: string
  region: string
  zone: string
  /** Zone names the wire uses for this city, alternating per venue (legacy and IANA forms). */
  wireZones: string[]
  firstId: number
}

const NEW_YORK: City = {
  city: 'New York',
  region: 'NY',
  zone: 'America/New_York',
  wireZones: ['EST5EDT', 'America/New_York'],
  firstId: 60101,
}
const CHICAGO: City = { city: 'Chicago', region: 'IL', zone: 'America/Chicago', wireZones: ['CST6CDT', 'America/Chicago'], firstId: 60201 }
const DENVER: City = { city: 'Denver', region: 'CO', zone: 'America/Denver', wireZones: ['America/Denver', 'MST7MDT'], firstId: 60301 }
const LOS_ANGELES: City = {
  city: 'Los Angeles',
  region: 'CA',
  zone: 'America/Los_Angeles',
  wireZones: ['PST8PDT', 'America/Los_Angeles'],
  firstId: 60401,
}
const PHOENIX: City = { city: 'Phoenix', region: 'AZ', zone: 'America/Phoenix', wireZones: ['America/Phoenix'], firstId: 60501 }

const fee = (feePerPerson: number, cutoffHours: number): Policy => ({ kind: 'fee', feePerPerson, cutoffHours })
const deposit = (amountPerPerson: number, cutoffHours: number): Policy => ({ kind: 'deposit', amountPerPerson, cutoffHours })
const prepaid = (amountPerPerson: number): Policy => ({ kind: 'prepaid', amountPerPerson })
const ticketed = (amountPerPerson: number): Policy => ({ kind: 'ticketed', amountPerPerson })
/** No card held, but the notes state a per-person reservation fee ([idx 37355943101]; docs/platform.md, "Money terms"). */
const textFee = (textFeePerPerson: number): Policy => ({ kind: 'free', textFeePerPerson })

interface Extra {
  policies?: Record<string, Policy>
  release?: [days: number, time: string, notes: string]
  density?: number
  closed?: number
  rule?: BookingRule
  reopen?: string
  sharedTokens?: boolean
}

type Row = [name: string, neighborhood: string, cuisine: string, seatings: string[], extra?: Extra]

/** A reopening still to come for any clock the sandbox runs on. */
const FUTURE_REOPENING = '2099-03-01'

export const HOUSE_NOTES = 'We hold tables for 15 minutes. Our kitchen closes at 10 PM.'

const ROWS: [City, Row[]][] = [
  [
    NEW_YORK,
    [
      [
        'Juniper & Vine',
        'West Village',
        'New American',
        ['Dining Room', 'Bar', 'Patio'],
        {
          policies: { 'Dining Room': fee(25, 24) },
          release: [14, '09:00', 'Reservations open 14 days in advance at 9:00 AM local time.'],
          density: 0.18,
        },
      ],
      [
        'Ferro Trattoria',
        'Greenwich Village',
        'Italian',
        ['Dining Room', 'Bar'],
        { release: [30, '10:00', 'New tables are released 30 days ahead at 10 AM.'], density: 0.15 },
      ],
      [
        'Little Ember',
        'Lower East Side',
        'Korean',
        ['Counter', 'Dining Room'],
        { policies: { Counter: fee(50, 48) }, density: 0.25, closed: 1 },
      ],
      [
        'Harbor Lantern',
        'Tribeca',
        'Seafood',
        ['Dining Room', "Chef's Room", 'Bar'],
        {
          policies: { "Chef's Room": prepaid(185), 'Dining Room': fee(50, 48) },
          release: [28, '00:00', 'Tables drop 28 days in advance at midnight.'],
          density: 0.2,
        },
      ],
      ['Pomelo Garden', 'Williamsburg', 'Thai', ['Dining Room', 'Garden'], { density: 0.35 }],
      ['Saltgrass Oyster Bar', 'East Village', 'Seafood', ['Bar', 'Dining Room', 'Sidewalk'], { density: 0.3 }],
      ['Atlas Rooftop', 'Midtown', 'Mediterranean', ['Rooftop', 'Lounge'], { policies: { Rooftop: deposit(40, 72) }, density: 0.25 }],
      [
        'Marrow & Smoke',
        'Chelsea',
        'Steakhouse',
        ['Dining Room', 'Bar', 'Booth'],
        { policies: { 'Dining Room': fee(10, 4) }, density: 0.3 },
      ],
      [
        'Sora Omakase',
        'Flatiron',
        'Japanese',
        ['Counter'],
        {
          policies: { Counter: ticketed(225) },
          release: [21, '12:00', 'Seats become bookable 21 days out at noon.'],
          density: 0.2,
          closed: 0,
        },
      ],
      ['The Quiet Fig', 'Cobble Hill', 'Mediterranean', ['Dining Room', 'Backyard'], { density: 0.4 }],
      ['Cassia Room', 'SoHo', 'Indian', ['Dining Room', 'Bar Seats'], { policies: { 'Dining Room': fee(25, 24) }, density: 0.3 }],
      ['Bodega Azul', 'Bushwick', 'Mexican', ['Dining Room', 'Patio', 'Bar'], { density: 0.45 }],
      // Money stated outside the find slot's payment (docs/platform.md, "Money terms"): a fee only in the notes, a large-party fee.
      ['Wren & Wool', 'Nolita', 'Wine Bar', ['Dining Room', 'Bar'], { policies: { 'Dining Room': textFee(25) }, density: 0.3 }],
      [
        'Gramercy Hearth',
        'Gramercy',
        'American',
        ['Dining Room', 'Bar'],
        { policies: { 'Dining Room': { ...fee(25, 24), largeParty: { size: 6, feePerPerson: 100 } } }, density: 0.3 },
      ],
      // Venues the service cannot book (docs/platform.md, "Venues and search", "Booking";
      // [idx 57928723907]): a reCAPTCHA at booking ("Carbone NYC is false; Carbone Miami is true"),
      // tables held in Tock's inventory, and a card on file even for a free table (a bare 402).
      ['Vesper Hall', 'Meatpacking', 'Italian', ['Dining Room', 'Bar'], { density: 0.3, rule: 'recaptcha' }],
      ['Larder & Lamp', 'Fort Greene', 'Tasting Menu', ['Dining Room'], { density: 0.3, rule: 'tock' }],
      ['Cinder Club', 'Hudson Square', 'American', ['Dining Room', 'Bar'], { density: 0.3, rule: 'card_on_file' }],
    ],
  ],
  [
    CHICAGO,
    [
      [
        'Lakeshore Supper Club',
        'River North',
        'American',
        ['Dining Room', 'Lounge', 'Terrace'],
        { policies: { Terrace: fee(20, 24) }, release: [14, '10:00', 'Reservations open 14 days in advance at 10:00 a.m.'], density: 0.25 },
      ],
      [
        'Prairie Hearth',
        'West Loop',
        'New American',
        ['Dining Room', "Chef's Counter"],
        { policies: { "Chef's Counter": prepaid(150) }, density: 0.2, closed: 1 },
      ],
      ['Copper Kettle Tavern', 'Wicker Park', 'Gastropub', ['Bar', 'Dining Room', 'Patio'], { density: 0.45 }],
      ['Aster & Oak', 'Logan Square', 'Seasonal', ['Dining Room', 'Garden'], { policies: { 'Dining Room': fee(15, 12) }, density: 0.3 }],
      ['Maru Noodle House', 'Chinatown', 'Chinese', ['Dining Room', 'Counter'], { density: 0.5 }],
      [
        'Velvet Anchor',
        'Gold Coast',
        'Seafood',
        ['Dining Room', 'Bar'],
        {
          policies: { 'Dining Room': deposit(25, 48) },
          release: [30, '09:00', 'Tables are released 30 days in advance at 9 AM CT.'],
          density: 0.2,
        },
      ],
      ['Little Saffron', 'Andersonville', 'Persian', ['Dining Room', 'Sidewalk'], { density: 0.4 }],
      ['Bramble Rooftop', 'Fulton Market', 'Cocktails & Small Plates', ['Rooftop', 'Lounge', 'Bar'], { density: 0.35 }],
      [
        'Ostra Tasting Room',
        'West Loop',
        'Tasting Menu',
        ['Tasting Counter'],
        { policies: { 'Tasting Counter': ticketed(175) }, density: 0.25, closed: 2 },
      ],
      ['Birch & Barrel', 'Lincoln Park', 'American', ['Dining Room', 'Bar', 'Patio'], { density: 0.4 }],
      // The booking details add a platform fee and tax at booking ([idx 53104099941]; docs/platform.md, "Money terms").
      [
        'Union Stock Grill',
        'Pilsen',
        'Grill',
        ['Dining Room', 'Bar'],
        { policies: { 'Dining Room': { kind: 'free', charges: { resyFee: 5, tax: 0.45 } } }, density: 0.3 },
      ],
    ],
  ],
  [
    DENVER,
    [
      ['Summit Ember', 'LoDo', 'Steakhouse', ['Dining Room', 'Bar', 'Patio'], { policies: { 'Dining Room': fee(25, 24) }, density: 0.3 }],
      [
        'Aspen & Ash',
        'RiNo',
        'Wood-fired',
        ['Dining Room', 'Counter', 'Rooftop'],
        { release: [21, '10:00', 'Reservations become available 21 days in advance at 10:00 AM MT.'], density: 0.25 },
      ],
      ['Blue Spruce Kitchen', 'Highlands', 'New American', ['Dining Room', 'Patio'], { density: 0.4 }],
      ['Canyon Mole', 'Baker', 'Mexican', ['Dining Room', 'Bar', 'Backyard'], { density: 0.45 }],
      [
        'Larkspur Counter',
        'Capitol Hill',
        'Tasting Menu',
        ['Counter', "Chef's Room"],
        { policies: { Counter: fee(50, 72), "Chef's Room": prepaid(140) }, density: 0.2, closed: 1 },
      ],
      ['Mile High Oyster Co.', 'Union Station', 'Seafood', ['Bar', 'Dining Room'], { density: 0.35 }],
      [
        'Golden Hour Terrace',
        'Cherry Creek',
        'Mediterranean',
        ['Terrace', 'Dining Room', 'Lounge'],
        { policies: { Terrace: deposit(20, 24) }, density: 0.3 },
      ],
      ['Pinyon Ramen', 'Sloan Lake', 'Japanese', ['Counter', 'Dining Room'], { density: 0.5 }],
      [
        'The Gilded Elk',
        'Larimer Square',
        'American',
        ['Dining Room', 'Booth', 'Bar'],
        { release: [7, '08:00', 'Tables open 7 days in advance at 8:00 AM.'], density: 0.3 },
      ],
      // A service fee in the booking details; on the patio the details state no amounts at all (docs/platform.md, "Money terms").
      [
        'Foothill Provisions',
        'Golden Triangle',
        'Seasonal',
        ['Dining Room', 'Patio'],
        {
          policies: { 'Dining Room': { kind: 'free', charges: { serviceFee: 12 } }, Patio: { kind: 'free', gap: 'amounts_missing' } },
          density: 0.3,
        },
      ],
    ],
  ],
  [
    LOS_ANGELES,
    [
      [
        'Palisade Grill',
        'Santa Monica',
        'Californian',
        ['Dining Room', 'Patio', 'Bar'],
        { policies: { Patio: fee(20, 24) }, release: [30, '10:00', 'Reservations open 30 days in advance at 10 AM PT.'], density: 0.2 },
      ],
      ['Casa Nopal', 'Silver Lake', 'Mexican', ['Dining Room', 'Garden', 'Bar'], { density: 0.45 }],
      ['Kumo Hand Roll', 'Arts District', 'Japanese', ['Counter'], { density: 0.4 }],
      [
        'Velour',
        'West Hollywood',
        'French',
        ['Dining Room', 'Lounge', 'Terrace'],
        { policies: { 'Dining Room': fee(75, 48) }, density: 0.2, closed: 1 },
      ],
      ['Sunset Canteen', 'Echo Park', 'American', ['Dining Room', 'Sidewalk', 'Bar'], { density: 0.45 }],
      ['Olive & Ember', 'Venice', 'Mediterranean', ['Dining Room', 'Backyard'], { policies: { Backyard: deposit(30, 48) }, density: 0.3 }],
      [
        'Sable Tasting Room',
        'Downtown',
        'Tasting Menu',
        ["Chef's Room", 'Counter'],
        {
          policies: { "Chef's Room": prepaid(210), Counter: ticketed(160) },
          release: [14, '12:00', 'Experiences are released 14 days in advance at 12:00 PM.'],
          density: 0.2,
          closed: 0,
        },
      ],
      ['Koreatown Coal House', 'Koreatown', 'Korean BBQ', ['Dining Room', 'Booth'], { density: 0.5 }],
      ['Marigold Rooftop', 'Hollywood', 'Cocktails & Small Plates', ['Rooftop', 'Bar'], { density: 0.35 }],
      [
        'Tidewater',
        'Malibu',
        'Seafood',
        ['Dining Room', 'Patio'],
        { policies: { 'Dining Room': fee(25, 24), Patio: fee(25, 24) }, density: 0.25 },
      ],
      ['Little Pasta Bar', 'Los Feliz', 'Italian', ['Bar', 'Dining Room'], { density: 0.4 }],
    ],
  ],
  [
    PHOENIX,
    [
      // A past `reopen.date` is common on open venues and means nothing ([idx 70940072871]).
      ['Saguaro Supper', 'Arcadia', 'Southwestern', ['Dining Room', 'Patio'], { density: 0.4, reopen: '2025-03-01' }],
      [
        'Desert Bloom',
        'Roosevelt Row',
        'Vegetarian',
        ['Dining Room', 'Garden', 'Bar'],
        { release: [10, '09:00', 'Reservations open 10 days in advance at 9:00 AM.'], density: 0.3 },
      ],
      // Slots an ordinary account cannot book (DevTools captures, Sept 2026: [idx 71230653704],
      // [idx 70940072871]): `exclusive.is_eligible: false` in the lounge, `is_global_dining_access`
      // at the bar. Their book answers 412 with a message.
      [
        'Mesa Members Room',
        'Biltmore',
        'American',
        ['Dining Room', 'Members Lounge', 'Bar'],
        {
          policies: { 'Members Lounge': { kind: 'free', access: 'exclusive' }, Bar: { kind: 'free', access: 'global_dining_access' } },
          density: 0.4,
        },
      ],
      // A paid add-on on the patio, every fee field null (`payment.is_add_on_required`, same captures),
      // and every table listed twice: two `config.id`s sharing one `config.token`.
      [
        'Ocotillo Table',
        'Downtown',
        'Southwestern',
        ['Dining Room', 'Patio'],
        { policies: { Patio: { kind: 'free', addOnPerPerson: 45 } }, density: 0.4, sharedTokens: true },
      ],
      // Venue flags that say the service cannot book there ([idx 70940072871], [idx 66651854206],
      // [idx 71117166063], [idx 57928723907]); the concierge flag is on the wide search's hits too.
      ['Camelback Concierge', 'Camelback East', 'Steakhouse', ['Dining Room'], { density: 0.35, rule: 'gda_concierge' }],
      ['Papago Exchange', 'Tempe', 'Seafood', ['Dining Room', 'Bar'], { density: 0.35, rule: 'reservation_transfers' }],
      ['Sonoran Crossing', 'Scottsdale', 'Mexican', ['Dining Room', 'Patio'], { density: 0.35, rule: 'other_platform' }],
      ['Roosevelt Reopening', 'Roosevelt Row', 'Italian', ['Dining Room'], { density: 0.35, rule: 'reopens_later' }],
    ],
  ],
]

function slugOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}

function venuesOf(city: City, rows: Row[]): SandboxVenue[] {
  return rows.map(([name, neighborhood, cuisine, seatings, extra = {}], i) => {
    const release: ReleaseRule | null = extra.release ? { days: extra.release[0], time: extra.release[1] } : null
    return {
      id: city.firstId + i,
      name,
      city: city.city,
      region: city.region,
      neighborhood,
      cuisine,
      zone: city.zone,
      wireZone: city.wireZones[i % city.wireZones.length] ?? city.zone,
      slug: slugOf(name),
      seatings,
      policies: extra.policies ?? {},
      release,
      density: extra.density ?? 0.3,
      closedWeekday: extra.closed ?? null,
      notes: extra.release ? `${extra.release[2]} ${HOUSE_NOTES}` : HOUSE_NOTES,
      bookingRule: extra.rule ?? null,
      reopenDate: extra.reopen ?? (extra.rule === 'reopens_later' ? FUTURE_REOPENING : null),
      sharedTokens: extra.sharedTokens === true,
    }
  })
}

export const VENUES: readonly SandboxVenue[] = ROWS.flatMap(([city, rows]) => venuesOf(city, rows))

const BY_ID = new Map(VENUES.map((v) => [v.id, v]))

export const venueById = (id: number): SandboxVenue | undefined => BY_ID.get(id)

/** Every word of the query must appear in the name, neighborhood, city or cuisine. */
export function searchVenues(query: string, limit: number): SandboxVenue[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return []
  const hay = (v: SandboxVenue) => `${v.name} ${v.neighborhood} ${v.city} ${v.cuisine}`.toLowerCase()
  const nameFirst = (v: SandboxVenue) => (v.name.toLowerCase().includes(words.join(' ')) ? 0 : 1)
  return VENUES.filter((v) => words.every((w) => hay(v).includes(w)))
    .sort((a, b) => nameFirst(a) - nameFirst(b) || a.name.localeCompare(b.name))
    .slice(0, limit)
}
