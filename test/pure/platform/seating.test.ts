import { describe, expect, it } from 'vitest'
import { seatingMatches, seatingOf } from '../../../src/platform/seating'

describe('seatingOf', () => {
  it.each(['Dining Room', 'Bar', 'Bar Seats', 'Counter', "Chef's Counter", 'Lounge', 'Indoor', "Chef's Room", 'MAIN DINING ROOM', 'Booth'])(
    'reads %s as indoor',
    (raw) => expect(seatingOf(raw)).toBe('indoor'),
  )

  it.each([
    'Patio',
    'Terrace',
    'Garden',
    'Backyard',
    'Sidewalk',
    'Rooftop',
    'Outdoor',
    'outdoor dining',
    'Rooftop Bar',
    'Patio Bar',
    'Courtyard',
  ])('reads %s as outdoor', (raw) => expect(seatingOf(raw)).toBe('outdoor'))

  it.each(['Little Wayla', 'Dinner', 'Table', 'Standard', '', 'Barbecue Pit', 'Gardenia'])('reads %s as unknown', (raw) =>
    expect(seatingOf(raw)).toBe('unknown'),
  )
})

describe('seatingMatches', () => {
  it('lets any seating match "any", unknown included', () => {
    expect(seatingMatches('any', 'Little Wayla')).toBe(true)
    expect(seatingMatches('any', 'Patio')).toBe(true)
  })

  it('matches indoor and outdoor only to their own kind, never an unknown type', () => {
    expect(seatingMatches('indoor', 'Dining Room')).toBe(true)
    expect(seatingMatches('indoor', 'Patio')).toBe(false)
    expect(seatingMatches('outdoor', 'Garden')).toBe(true)
    expect(seatingMatches('outdoor', 'Bar')).toBe(false)
    expect(seatingMatches('indoor', 'Little Wayla')).toBe(false)
    expect(seatingMatches('outdoor', 'Dinner')).toBe(false)
  })
})
