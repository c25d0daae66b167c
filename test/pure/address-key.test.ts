// Every per-address limit counts an IPv6 /64 as one address.
import { describe, expect, it } from 'vitest'
import { addressKey } from '../../src/lib/address-key'

describe('the rate-limit key of a client address', () => {
  it('is the /64 of an IPv6 address, however it is written', () => {
    const key = addressKey('2001:db8:1:2::1')
    expect(key).toBe('2001:db8:1:2::/64')
    expect(addressKey('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe(key)
    expect(addressKey('2001:db8:1:2:0:0:0:abcd')).toBe(key)
    expect(addressKey('2001:db8:1:3::1')).not.toBe(key)
    expect(addressKey('::1')).toBe('0:0:0:0::/64')
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
  })

  it('is the address itself for IPv4, also when mapped into IPv6', () => {
    expect(addressKey('198.51.100.7')).toBe('198.51.100.7')
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7')
    expect(addressKey('::ffff:c633:6407')).toBe('198.51.100.7')
  })

  it('is one shared key without an address, and a bounded one for junk', () => {
    expect(addressKey(undefined)).toBe('unknown')
    expect(addressKey('')).toBe('unknown')
    expect(addressKey('x'.repeat(500))).toHaveLength(64)
  })
})
