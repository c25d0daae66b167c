// The sandbox's phone (the texts of code sign-ins, like the service's outbox of mail) and its
// answer to a browser's CORS preflight, from home and, in datacenter mode, from the cloud.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { sandboxDemo } from '../../src/platform/sandbox-demo'
import { newCodeSender } from '../../src/platform/session'
import { freshWorld } from '../platform/world'
import { wire } from './raw'

describe('the sandbox phone', () => {
  it('shows the code texted to a number on its page and in JSON, newest first, and to the service’s local pages', async () => {
    const world = freshWorld()
    const number = '+12125550123'
    await world.control.createAccount({ email: 'ada@example.com', mobileNumber: number, password: null })
    await world.platform.sendCode(number, newCodeSender())
    await world.platform.sendCode(number, newCodeSender())
    const texts = await world.control.texts(number)
    expect(texts).toHaveLength(2)
    const code = await world.control.lastCode(number)
    expect(texts[0]?.body).toMatch(new RegExp(`^${code} is your Resy verification code`))
    const page = await wire(world.baseUrl, `/__sandbox/phone?number=${encodeURIComponent(number)}`)
    expect(page.headers.get('Content-Type')).toMatch(/text\/html/)
    const html = await page.text()
    expect(html).toContain(`To ${number}`)
    expect(html).toContain(`${code} is your Resy verification code`)
    const demo = sandboxDemo({ PLATFORM: env.PLATFORM, PLATFORM_BASE_URL: world.baseUrl })
    expect((await demo?.texts(number))?.[0]?.body).toBe(texts[0]?.body)
    expect(await world.control.texts('+13125550100')).toEqual([])
  })
})

describe('a browser’s CORS preflight', () => {
  const preflight = (baseUrl: string, path: string, from?: string) =>
    wire(baseUrl, path, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://resy.com',
        'Access-Control-Request-Method': 'POST',
        ...(from ? { 'CF-Connecting-IP': from } : {}),
      },
    })

  it('is answered 204 for the web app’s origin, and refused like the sign-in it announces from the cloud in datacenter mode', async () => {
    const world = freshWorld()
    const ok = await preflight(world.baseUrl, '/4/auth/mobile')
    expect(ok.status).toBe(204)
    expect(ok.headers.get('Access-Control-Allow-Origin')).toBe('https://resy.com')
    await world.control.setSignInSettings({ datacenter: { refuse: ['sign_in', 'refresh'], homeAddresses: ['127.0.0.2'] } })
    const refused = await preflight(world.baseUrl, '/4/auth/mobile')
    expect([refused.status, await refused.text()]).toEqual([500, 'Internal Server Error'])
    expect(refused.headers.get('Access-Control-Allow-Origin')).toBeNull()
    expect((await preflight(world.baseUrl, '/3/auth/refresh')).status).toBe(500)
    // Reads are not refused; and from home, sign-in is answered.
    expect((await preflight(world.baseUrl, '/4/find')).status).toBe(204)
    expect((await preflight(world.baseUrl, '/4/auth/mobile', '127.0.0.2')).status).toBe(204)
  })
})
