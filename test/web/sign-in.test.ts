import { env } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { confirmationLink, WebClient } from './web-client'

const PASSWORD = 'correct horse battery'

function freshEmail(): string {
  return `user-${crypto.randomUUID()}@example.com`
}

afterEach(() => {
  vi.useRealTimers()
})

async function outboxSubjects(email: string): Promise<string[]> {
  const mail = await env.DB.prepare("select subject from outbox where to_address = ? and subject <> 'Confirm your Tablewatch account'")
    .bind(email)
    .all<{ subject: string }>()
  return mail.results.map((m) => m.subject)
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
  it('answers a new and an existing address the same way: "check your inbox", no session', async () => {
    const existing = freshEmail()
    await new WebClient().signUp(existing, PASSWORD)
    const answers = []
    for (const email of [freshEmail(), existing]) {
      const client = new WebClient()
      const res = await client.post('/signup', { email, password: 'another password 123', _csrf: await client.csrfFrom('/signup') })
      const sent = await client.get('/signup/sent')
      answers.push({
        status: res.status,
        location: res.headers.get('Location'),
        session: client.cookies.has('tw_session'),
        cookies: [...client.cookies.keys()].sort(),
        body: (await res.text()).length,
        page: (await sent.text()).replace(/name="_csrf" value="[^"]+"/g, '').replace(/<article>[\s\S]*<\/article>/g, ''),
      })
    }
    expect(answers[0]).toEqual(answers[1])
    expect(answers[0]).toMatchObject({ status: 303, location: '/signup/sent', session: false })
    // The existing account is left alone: the stranger's password does not open it.
    expect((await new WebClient().signIn(existing, 'another password 123')).status).toBe(401)
    expect((await new WebClient().signIn(existing, PASSWORD)).status).toBe(303)
  })

  it('creates the account only through the mailed link, whose page needs a click; then the user is signed in', async () => {
    const client = new WebClient()
    const email = freshEmail()
    const since = Date.now()
    await client.post('/signup', { email, password: PASSWORD, _csrf: await client.csrfFrom('/signup') })
    expect((await new WebClient().signIn(email, PASSWORD)).status).toBe(401)
    const link = new URL(await confirmationLink(email, since))
    const opened = await client.get(link.pathname + link.search)
    expect(opened.status).toBe(200)
    expect(await env.DB.prepare('select 1 from users where email = ?').bind(email).first()).toBeNull()
    const done = await client.confirmSignUp(email, since)
    expect(done.status).toBe(303)
    expect(done.headers.get('Location')).toBe('/?welcome=1')
    expect((await client.get('/settings')).status).toBe(200)
    // A second use of the link creates nothing: its page says so when it opens, with Sign in as the
    // next step and no "Create my account"; a post of it anyway sends to sign in.
    const used = await new WebClient().get(link.pathname + link.search)
    expect(used.status).toBe(422)
    const usedPage = await used.text()
    expect(usedPage).toContain('This link was used already: the account exists.')
    expect(usedPage).toContain('<a class="button" href="/signin">Sign in</a>')
    expect(usedPage).not.toContain('Create my account')
    const stranger = new WebClient()
    const again = await stranger.post('/signup/confirm', { t: link.searchParams.get('t') ?? '', _csrf: await stranger.csrfFrom('/signup') })
    expect(again.headers.get('Location')).toBe('/signin?signed_up=1')
    expect((await env.DB.prepare('select count(*) as n from users where email = ?').bind(email).first<{ n: number }>())?.n).toBe(1)
  })

  it('says a forged or damaged link is not valid when its page opens, before any "Create my account", with Sign up again', async () => {
    const opened = await new WebClient().get('/signup/confirm?t=forged.token')
    expect(opened.status).toBe(422)
    const page = await opened.text()
    expect(page).toContain('This link is not valid or has expired')
    expect(page).toContain('<a class="button" href="/signup">Sign up again</a>')
    expect(page).not.toContain('Create my account')
  })

  it('refuses a forged or damaged link with a 4xx page, creating nothing', async () => {
    const client = new WebClient()
    const res = await client.post('/signup/confirm', { t: 'forged.token', _csrf: await client.csrfFrom('/signup') })
    expect(res.status).toBe(422)
    expect(await res.text()).toContain('This link is not valid or has expired')
  })

  it('shows the mail it would have sent on the "check your inbox" page in local development only to the browser that signed up', async () => {
    const client = new WebClient()
    const email = freshEmail()
    await client.post('/signup', { email, password: PASSWORD, _csrf: await client.csrfFrom('/signup') })
    await confirmationLink(email, 0)
    expect(await (await client.get('/signup/sent')).text()).toContain('Confirm your Tablewatch account')
    expect(await (await new WebClient().get('/signup/sent')).text()).not.toContain('Confirm your Tablewatch account')
  })

  it('tells the owner of an existing email, through the outbox, that someone tried', async () => {
    const email = freshEmail()
    await new WebClient().signUp(email, PASSWORD)
    await new WebClient().signUp(email, 'another password 123')
    await vi.waitFor(async () => expect(await outboxSubjects(email)).toEqual(['Someone tried to create an account with your email']))
  })

  it('tells the owner at most once a day, however often someone tries', async () => {
    const email = freshEmail()
    await new WebClient().signUp(email, PASSWORD)
    for (let i = 0; i < 3; i++) expect((await new WebClient().signUp(email, `another password ${i}00`)).status).toBe(303)
    await vi.waitFor(async () => expect(await outboxSubjects(email)).toHaveLength(1))
    // The notice is written in the background: give a second or third one time to appear.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await outboxSubjects(email)).toHaveLength(1)
  })

  it('limits sign-ups from one client address to 30 an hour', async () => {
    const client = new WebClient()
    for (let i = 0; i < 30; i++) expect((await client.signUp(freshEmail(), PASSWORD)).status).toBe(303)
    const refused = await client.signUp(freshEmail(), PASSWORD)
    expect(refused.status).toBe(429)
    expect(await alertText(refused)).toMatch(/^Too many sign-ups from your network, try again in \d+ minutes?\.$/)
    expect((await new WebClient().signUp(freshEmail(), PASSWORD)).status).toBe(303)
  })

  it.each(['', '127.0.0.1', '::1'])(
    'counts no sign-ups per address for a local run (address "%s"; a deployment always has a public one)',
    async (address) => {
      const local = new WebClient('http://localhost', address)
      for (let i = 0; i < 31; i++) expect((await local.signUp(freshEmail(), PASSWORD)).status).toBe(303)
    },
  )

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
    expect((await client.signIn(email, PASSWORD)).status).toBe(429)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 16 * 60 * 1000)
    expect((await client.signIn(email, PASSWORD)).status).toBe(303)
  })

  it('does not let failures from elsewhere lock the owner out', async () => {
    const owner = new WebClient()
    const attacker = new WebClient()
    const email = freshEmail()
    await owner.signUp(email, PASSWORD)
    for (let i = 0; i < 5; i++) expect((await attacker.signIn(email, `wrong ${i} password`)).status).toBe(401)
    expect((await attacker.signIn(email, PASSWORD)).status).toBe(429)
    expect((await owner.signIn(email, PASSWORD)).status).toBe(303)
  })

  it('slows down guesses at one email from many places: 10 a minute', async () => {
    const email = freshEmail()
    await new WebClient().signUp(email, PASSWORD)
    for (let i = 0; i < 10; i++) expect((await new WebClient().signIn(email, `wrong ${i} password`)).status).toBe(401)
    const slowed = await new WebClient().signIn(email, `wrong password again`)
    expect(slowed.status).toBe(429)
    expect(await alertText(slowed)).toBe('Too many attempts, try again in 1 minute.')
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 61_000)
    expect((await new WebClient().signIn(email, PASSWORD)).status).toBe(303)
  })

  it('reserves each attempt before checking the password: 40 parallel guesses run at most 5 checks', async () => {
    const client = new WebClient()
    const email = freshEmail()
    await client.signUp(email, PASSWORD)
    const csrf = await client.csrfFrom('/signin')
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => client.post('/signin', { email, password: `wrong ${i} password`, _csrf: csrf })),
    )
    const statuses = answers.map((res) => res.status)
    expect(statuses.filter((status) => status === 401)).toHaveLength(5)
    expect(statuses.filter((status) => status === 429)).toHaveLength(35)
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

describe('the per-address sign-in limit', () => {
  it('counts every address of an IPv6 /64 as one address', async () => {
    const email = await new WebClient().newUser()
    for (let i = 1; i <= 5; i++) {
      const res = await new WebClient(undefined, `2001:db8:77:1::${i.toString(16)}`).signIn(email, 'wrong password here')
      expect(res.status).toBe(401)
    }
    const sixth = await new WebClient(undefined, '2001:db8:77:1:abcd::9').signIn(email, 'wrong password here')
    expect(sixth.status).toBe(429)
  })
})

describe('known devices', () => {
  it('guesses from 30 addresses cannot lock out a browser that signed in before; a new browser still waits', async () => {
    const owner = new WebClient()
    const email = freshEmail()
    await owner.signUp(email, PASSWORD)
    expect((await owner.signIn(email, PASSWORD)).status).toBe(303)
    await owner.post('/signout', { _csrf: await owner.csrfFrom('/settings') })
    // 30 addresses, each below its own limits, spend the email's shared budget.
    for (let i = 0; i < 30; i++) await new WebClient().signIn(email, `wrong ${i} password`)
    expect((await new WebClient().signIn(email, PASSWORD)).status).toBe(429)
    expect((await owner.signIn(email, PASSWORD)).status).toBe(303)
  })

  it('the browser that confirmed the sign-up is a known device: guesses from 40 addresses cannot lock it out', async () => {
    const owner = new WebClient()
    const email = freshEmail()
    await owner.signUp(email, PASSWORD) // the mailed link, opened and confirmed in this browser; then signed out
    for (let i = 0; i < 40; i++) await new WebClient().signIn(email, `wrong ${i} password`)
    expect((await new WebClient().signIn(email, PASSWORD)).status).toBe(429)
    expect((await owner.signIn(email, PASSWORD)).status).toBe(303)
  })

  it('a device cookie of another email, or a forged one, gives no budget of its own', async () => {
    const email = freshEmail()
    await new WebClient().signUp(email, PASSWORD)
    const other = new WebClient()
    const otherEmail = await other.newUser()
    expect(otherEmail).not.toBe(email)
    other.cookies.delete('tw_session')
    expect(other.cookies.has('tw_device')).toBe(true)
    for (let i = 0; i < 10; i++) await new WebClient().signIn(email, `wrong ${i} password`)
    expect((await other.signIn(email, PASSWORD)).status).toBe(429)
    const forger = new WebClient()
    forger.cookies.set('tw_device', 'abc.forged')
    expect((await forger.signIn(email, PASSWORD)).status).toBe(429)
  })
})
