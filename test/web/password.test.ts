import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { hashPassword, PBKDF2_ITERATIONS, verifyPassword } from '../../src/auth/password'
import { WebClient } from './web-client'

const PEPPER = 'a pepper for these tests only'

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
    const stored = await hashPassword('correct horse battery', PEPPER)
    expect(await verifyPassword('correct horse battery', stored, PEPPER)).toBe(true)
    expect(await verifyPassword('correct horse batterY', stored, PEPPER)).toBe(false)
  })

  it('are salted with 16 fresh bytes, so equal passwords hash differently', async () => {
    const a = await hashPassword('same password', PEPPER)
    const b = await hashPassword('same password', PEPPER)
    expect(atob(a.salt)).toHaveLength(16)
    expect(a.salt).not.toBe(b.salt)
    expect(a.hash).not.toBe(b.hash)
    expect(a.iterations).toBe(100_000)
  })

  it('never match when the stored count is above what production allows', async () => {
    const stored = await hashPassword('correct horse battery', PEPPER, 100_001)
    expect(await verifyPassword('correct horse battery', stored, PEPPER)).toBe(false)
  })

  it('need the pepper: the right password with another pepper does not verify', async () => {
    const stored = await hashPassword('correct horse battery', PEPPER)
    expect(await verifyPassword('correct horse battery', stored, 'another pepper')).toBe(false)
  })
})

async function pbkdf2Base64(password: string, saltBase64: string, iterations: number): Promise<string> {
  const salt = Uint8Array.from(atob(saltBase64), (ch) => ch.charCodeAt(0))
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveBits'])
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, 256)
  return btoa(String.fromCharCode(...new Uint8Array(bits)))
}

interface StoredRow {
  password_hash: string
  password_salt: string
  password_iterations: number
}

describe('the pepper', () => {
  it('a copy of D1 alone cannot test a guess: the stored hash is not PBKDF2 of the password', async () => {
    const client = new WebClient()
    const email = `user-${crypto.randomUUID()}@example.com`
    await client.signUp(email, 'correct horse battery')
    const row = await env.DB.prepare('select password_hash, password_salt, password_iterations from users where email = ?')
      .bind(email)
      .first<StoredRow>()
    if (!row) throw new Error('no user row')
    expect(await pbkdf2Base64('correct horse battery', row.password_salt, row.password_iterations)).not.toBe(row.password_hash)
  })

  it('a hash stored before the pepper still signs in, and is peppered in place', async () => {
    const email = `legacy-${crypto.randomUUID()}@example.com`
    const salt = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))))
    const legacy = await pbkdf2Base64('correct horse battery', salt, PBKDF2_ITERATIONS)
    await env.DB.prepare(
      'insert into users (id, email, password_hash, password_salt, password_iterations, password_pepper_version, created_at) values (?, ?, ?, ?, ?, null, ?)',
    )
      .bind(`usr_legacy${crypto.randomUUID().slice(0, 8)}`, email, legacy, salt, PBKDF2_ITERATIONS, Date.now())
      .run()
    expect((await new WebClient().signIn(email, 'wrong password here')).status).toBe(401)
    const upgraded = await env.DB.prepare('select password_hash, password_pepper_version as v from users where email = ?')
      .bind(email)
      .first<{ password_hash: string; v: number | null }>()
    expect(upgraded?.v).toBe(1)
    expect(upgraded?.password_hash).not.toBe(legacy)
    expect((await new WebClient().signIn(email, 'correct horse battery')).status).toBe(303)
  })
})
