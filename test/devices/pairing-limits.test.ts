// Pairing-code guessing is limited per address (an IPv6 /64 is one
// address), per code and across all addresses; a device's name loses control and bidi characters.
import { env, SELF } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { WebClient } from '../web/web-client'
import { pairingCode } from './device-client'

function pairFrom(address: string, code: string, name = 'Kitchen Pi'): Promise<Response> {
  return SELF.fetch('http://localhost/device/v1/pair', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': address },
    body: JSON.stringify({ code, name }),
  })
}

const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ'
function randomCode(): string {
  const picks = crypto.getRandomValues(new Uint8Array(8))
  const letters = [...picks].map((b) => ALPHABET[b % ALPHABET.length]).join('')
  return `${letters.slice(0, 4)}-${letters.slice(4)}`
}

beforeEach(async () => {
  await env.DB.prepare("delete from rate_limits where key like 'device-pair%'").run()
})

describe('pairing-code guessing', () => {
  it('counts every address of an IPv6 /64 as one', async () => {
    for (let i = 1; i <= 10; i++) expect((await pairFrom(`2001:db8:1:2::${i.toString(16)}`, randomCode())).status).toBe(422)
    const next = await pairFrom('2001:db8:1:2:ffff:ffff:ffff:ffff', randomCode())
    expect(next.status).toBe(429)
    // Another /64 has its own budget.
    expect((await pairFrom('2001:db8:1:3::1', randomCode())).status).toBe(422)
  })

  it('limits one code value tried from many addresses', async () => {
    const code = randomCode()
    for (let i = 1; i <= 5; i++) expect((await pairFrom(`198.51.100.${i}`, code)).status).toBe(422)
    expect((await pairFrom('198.51.100.77', code)).status).toBe(429)
  })

  it('limits wrong codes from everywhere together, and a right code still pairs afterwards in a new window', async () => {
    // 300 wrong codes from 300 addresses (the limit per address never bites).
    for (let i = 0; i < 300; i++) {
      const res = await pairFrom(`203.0.${Math.floor(i / 250)}.${i % 250}`, randomCode())
      expect(res.status).toBe(422)
    }
    expect((await pairFrom('192.0.2.200', randomCode())).status).toBe(429)
    await env.DB.prepare("update rate_limits set window_start = 0 where key = 'device-pair-everywhere'").run()
    const client = new WebClient()
    await client.newUser()
    const { code } = await pairingCode(client)
    expect((await pairFrom('192.0.2.201', code)).status).toBe(201)
  }, 60_000)
})

describe('a device’s name', () => {
  it('loses control and bidirectional characters, as token names do', async () => {
    const client = new WebClient()
    await client.newUser()
    const { code } = await pairingCode(client)
    const res = await pairFrom('192.0.2.9', code, 'Kitchen\u202E\u0007 Pi')
    expect(res.status).toBe(201)
    const body = (await res.json()) as { device_id: string }
    const row = await env.DB.prepare('select name from devices where id = ?').bind(body.device_id).first<{ name: string }>()
    expect(row?.name).toBe('Kitchen Pi')
  })
})
