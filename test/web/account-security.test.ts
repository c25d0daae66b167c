// Sign out everywhere, and changing the password, on /settings/security.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { WebClient } from './web-client'

const PASSWORD = 'correct horse battery'
const NEW_PASSWORD = 'a brand new passphrase'

/** Two browsers signed in as the same user. */
async function twoBrowsers(): Promise<{ laptop: WebClient; phone: WebClient; email: string }> {
  const laptop = new WebClient()
  const email = await laptop.newUser(PASSWORD)
  const phone = new WebClient()
  expect((await phone.signIn(email, PASSWORD)).status).toBe(303)
  return { laptop, phone, email }
}

async function sessionCount(email: string): Promise<number> {
  const row = await env.DB.prepare('select count(*) as n from sessions join users on users.id = sessions.user_id where users.email = ?')
    .bind(email)
    .first<{ n: number }>()
  return row?.n ?? 0
}

describe('sign out everywhere', () => {
  it('ends every session of the user, this one too', async () => {
    const { laptop, phone, email } = await twoBrowsers()
    const res = await laptop.post('/settings/signout-everywhere', { _csrf: await laptop.csrfFrom('/settings/security') })
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe('/signin?signed_out=everywhere')
    expect((await laptop.get('/assistants')).status).toBe(303)
    expect((await phone.get('/assistants')).status).toBe(303)
    expect(await sessionCount(email)).toBe(0)
    expect(await (await laptop.get('/signin?signed_out=everywhere')).text()).toContain('You are signed out everywhere')
  })

  it("leaves other users' sessions alone", async () => {
    const { laptop } = await twoBrowsers()
    const stranger = new WebClient()
    await stranger.newUser()
    await laptop.post('/settings/signout-everywhere', { _csrf: await laptop.csrfFrom('/settings/security') })
    expect((await stranger.get('/assistants')).status).toBe(200)
  })
})

describe('changing the password', () => {
  it('needs the current password', async () => {
    const { laptop, phone } = await twoBrowsers()
    const res = await laptop.post('/settings/password', {
      current_password: 'not my password',
      new_password: NEW_PASSWORD,
      _csrf: await laptop.csrfFrom('/settings/security'),
    })
    expect(res.status).toBe(422)
    expect(await res.text()).toContain('That is not your current password')
    expect((await phone.get('/assistants')).status).toBe(200)
  })

  it('explains a new password that is too short', async () => {
    const { laptop } = await twoBrowsers()
    const res = await laptop.post('/settings/password', {
      current_password: PASSWORD,
      new_password: 'short',
      _csrf: await laptop.csrfFrom('/settings/security'),
    })
    expect(res.status).toBe(422)
    expect(await res.text()).toContain('Use at least 10 characters')
  })

  it('replaces it, signs out every other browser, keeps this one, and tells the owner by email', async () => {
    const { laptop, phone, email } = await twoBrowsers()
    const before = laptop.cookies.get('tw_session')
    const res = await laptop.post('/settings/password', {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
      _csrf: await laptop.csrfFrom('/settings/security'),
    })
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe('/settings/security?done=password')
    expect(laptop.cookies.get('tw_session')).not.toBe(before)
    expect((await laptop.get('/settings/security?done=password')).status).toBe(200)
    expect((await phone.get('/assistants')).status).toBe(303)
    expect(await sessionCount(email)).toBe(1)
    expect((await new WebClient().signIn(email, PASSWORD)).status).toBe(401)
    expect((await new WebClient().signIn(email, NEW_PASSWORD)).status).toBe(303)
    const mail = await env.DB.prepare('select subject from outbox where to_address = ?').bind(email).all<{ subject: string }>()
    expect(mail.results.map((m) => m.subject)).toContain('Your Tablewatch password was changed')
  })

  it('is throttled like sign-in: guesses of the current password stop after five', async () => {
    const { laptop } = await twoBrowsers()
    for (let i = 0; i < 5; i++) {
      const res = await laptop.post('/settings/password', {
        current_password: `guess ${i} of the password`,
        new_password: NEW_PASSWORD,
        _csrf: await laptop.csrfFrom('/settings/security'),
      })
      expect(res.status).toBe(422)
    }
    const limited = await laptop.post('/settings/password', {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
      _csrf: await laptop.csrfFrom('/settings/security'),
    })
    expect(limited.status).toBe(429)
  })
})
