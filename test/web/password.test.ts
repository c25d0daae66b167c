import { describe, expect, it } from 'vitest'
import { hashPassword, PBKDF2_ITERATIONS, verifyPassword } from '../../src/auth/password'

async function pbkdf2(iterations: number): Promise<ArrayBuffer> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode('pw'), 'PBKDF2', false, ['deriveBits'])
  return crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: new Uint8Array(16), iterations }, key, 256)
}

describe('PBKDF2 in workerd', () => {
  it('allows 100,000 iterations, which is what passwords use', async () => {
    expect(PBKDF2_ITERATIONS).toBe(100_000)
    await expect(pbkdf2(PBKDF2_ITERATIONS)).resolves.toBeInstanceOf(ArrayBuffer)
  })

  it('refuses one iteration more, so 100,000 is the highest count allowed', async () => {
    await expect(pbkdf2(PBKDF2_ITERATIONS + 1)).rejects.toThrow()
  })
})

describe('password hashes', () => {
  it('accepts the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse battery')
    expect(await verifyPassword('correct horse battery', stored)).toBe(true)
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false)
  })

  it('salts every hash with 16 fresh bytes, so equal passwords hash differently', async () => {
    const a = await hashPassword('same password')
    const b = await hashPassword('same password')
    expect(atob(a.salt)).toHaveLength(16)
    expect(a.salt).not.toBe(b.salt)
    expect(a.hash).not.toBe(b.hash)
    expect(a.iterations).toBe(100_000)
  })
})
