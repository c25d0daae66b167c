import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { WebClient } from './web-client'

const PASSWORD = 'correct horse battery'

function freshEmail(): string {
  return `user-${crypto.randomUUID()}@example.com`
}

/** The visible error of a sign-in page. */
async function alertText(res: Response): Promise<string> {
  const html = await res.text()
  return /<div class="alert alert-error" role="alert">(.*?)<\/div>/.exec(html)?.[1] ?? ''
}

describe('sign-in errors', () => {
  it('say the same for an unknown email and for a wrong password', async () => {
    const client = new WebClient()
    const email = freshEmail()
    await client.signUp(email, PASSWORD)
    const wrongPassword = await client.signIn(email, 'not the password')
    const unknownEmail = await client.signIn(freshEmail(), 'not the password')
    expect(wrongPassword.status).toBe(401)
    expect(unknownEmail.status).toBe(401)
    expect(await alertText(wrongPassword)).toBe('Email or password is incorrect.')
    expect(await alertText(unknownEmail)).toBe('Email or password is incorrect.')
  })
})

describe('sign-up', () => {
  it('answers an existing email exactly as a new one, and leaves the account alone', async () => {
    const owner = new WebClient()
    const email = freshEmail()
    const first = await owner.signUp(email, PASSWORD)
    const again = await new WebClient().signUp(email.toUpperCase(), 'another password 123')
    expect(again.status).toBe(first.status)
    expect(again.headers.get('Location')).toBe(first.headers.get('Location'))
    expect((await new WebClient().signIn(email, 'another password 123')).status).toBe(401)
    expect((await new WebClient().signIn(email, PASSWORD)).status).toBe(303)
  })

  it('tells the owner of an existing email, through the outbox, that someone tried', async () => {
    const email = freshEmail()
    await new WebClient().signUp(email, PASSWORD)
    await new WebClient().signUp(email, 'another password 123')
    const mail = await env.DB.prepare('select subject from outbox where to_address = ?').bind(email).all<{ subject: string }>()
    expect(mail.results.map((m) => m.subject)).toEqual(['Someone tried to create an account with your email'])
  })

  it('explains a too-short password next to the field', async () => {
    const client = new WebClient()
    const res = await client.post('/signup', { email: freshEmail(), password: 'short', _csrf: await client.csrfFrom('/signup') })
    expect(res.status).toBe(422)
    expect(await res.text()).toContain('Use at least 10 characters')
  })
})

describe('throttling', () => {
  it('locks an email for 15 minutes after 5 failures, even for the right password', async () => {
    const client = new WebClient()
    const email = freshEmail()
    await client.signUp(email, PASSWORD)
    for (let i = 0; i < 5; i++) expect((await client.signIn(email, `wrong ${i} password`)).status).toBe(401)
    const locked = await client.signIn(email, PASSWORD)
    expect(locked.status).toBe(429)
    expect(await alertText(locked)).toBe('Too many attempts, try again in 15 minutes.')
  })

  it('lets the user in again once the window has passed', async () => {
    const client = new WebClient()
    const email = freshEmail()
    await client.signUp(email, PASSWORD)
    for (let i = 0; i < 5; i++) await client.signIn(email, `wrong ${i} password`)
    const sixteenMinutesAgo = Date.now() - 16 * 60 * 1000
    await env.DB.prepare('update login_attempts set window_start = ? where key = ?').bind(sixteenMinutesAgo, `email:${email}`).run()
    expect((await client.signIn(email, PASSWORD)).status).toBe(303)
  })

  it('does not lock other emails', async () => {
    const client = new WebClient()
    const locked = freshEmail()
    const other = freshEmail()
    await client.signUp(locked, PASSWORD)
    await client.signUp(other, PASSWORD)
    for (let i = 0; i < 5; i++) await client.signIn(locked, `wrong ${i} password`)
    expect((await client.signIn(other, PASSWORD)).status).toBe(303)
  })
})
