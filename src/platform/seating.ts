// The platform's seating type is free text chosen by each venue ("Dining Room", "Bar Seats",
// "Backyard", "Little Wayla" …). Requests ask for indoor, outdoor or any; this maps one to the other.

export type Seating = 'indoor' | 'outdoor' | 'unknown'
export type WantedSeating = 'any' | 'indoor' | 'outdoor'

// Whole words, matched case-insensitively. Outdoor words win over indoor ones ("Patio Bar" is outside).
const OUTDOOR = [
  'patio',
  'terrace',
  'garden',
  'backyard',
  'sidewalk',
  'rooftop',
  'roof',
  'outdoor',
  'outdoors',
  'outside',
  'courtyard',
  'deck',
  'porch',
  'veranda',
  'alfresco',
]
// "Table" or "Dinner" alone say nothing about where the table is, so they stay unknown.
const INDOOR = [
  'dining',
  'room',
  'bar',
  'counter',
  'lounge',
  'indoor',
  'indoors',
  'inside',
  'booth',
  'banquette',
  'salon',
  'mezzanine',
  'cellar',
]

function words(raw: string): string[] {
  return raw
    .toLowerCase()
    .split(/[^a-z']+/)
    .filter((w) => w.length > 0)
}

export function seatingOf(rawType: string): Seating {
  const found = words(rawType)
  if (found.some((w) => OUTDOOR.includes(w))) return 'outdoor'
  if (found.some((w) => INDOOR.includes(w))) return 'indoor'
  return 'unknown'
}

/** A slot of unknown seating matches only `any`. */
export function seatingMatches(wanted: WantedSeating, rawType: string): boolean {
  return wanted === 'any' || seatingOf(rawType) === wanted
}
