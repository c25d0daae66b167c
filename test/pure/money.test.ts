import { describe, expect, it } from 'vitest'
import { dollars } from '../../src/lib/money'

describe('money', () => {
  it('always carries its sign, and cents only when there are some', () => {
    expect(dollars(25)).toBe('$25')
    expect(dollars(12.5)).toBe('$12.50')
    expect(dollars(0)).toBe('$0')
  })
})
