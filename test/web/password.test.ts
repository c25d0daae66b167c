import { describe, expect, it } from 'vitest'
import { hashPassword, PBKDF2_ITERATIONS, verifyPassword } from '../../src/auth/password'

async function pbkdf2(iterations: number): Promise<ArrayBuffer> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode('pw'), 'PBKDF2', false, ['deriveBits'])
  return crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: new Uint8Array(16), iterations }, key, 256)
}

describe('PBKDF2 iteration count', () => {
  it("is Cloudflare's cap of 100,000, which the runtime accepts", async () => {
    expect(PBKDF2_ITERATIONS).toBe(100_000)
    await expect(pbkdf2(PBKDF2_ITERATIONS)).resolves.toBeInstanceOf(ArrayBuffer)
  })

  it('is a constant because the local runtime does not enforce the cap (it accepts 100,001)', async () => {
    // If this starts failing, workerd enforces the production limit locally too; the constant
    // above stays right either way.
    await expect(pbkdf2(PBKDF2_ITERATIONS + 1)).resolves.toBeInstanceOf(ArrayBuffer)
  })
})

describe('password hashes', () => {
  it('accept the right password and refuse a wrong one', async () => {
    const stored = await hashPassword('correct horse battery')
    expect(await verifyPassword('correct horse battery', stored)).toBe(true)
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false)
  })

  it('are salted with 16 fresh bytes, so equal passwords hash differently', async () => {
    const a = await hashPassword('same password')
    const b = await hashPassword('same password')
    expect(atob(a.salt)).toHaveLength(16)
    expect(a.salt).not.toBe(b.salt)
    expect(a.hash).not.toBe(b.hash)
    expect(a.iterations).toBe(100_000)
  })

  it('never match when the stored count is above what production allows', async () => {
    const stored = await hashPassword('correct horse battery', 100_001)
    expect(await verifyPassword('correct horse battery', stored)).toBe(false)
  })
})
