// Password reset by email (issue 25, item 5), through the worker as a browser would use it.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { RESET_LINK_LIFETIME_MS, resetToken } from '../../src/auth/password-reset'
import { dbOf } from '../../src/db/client'
import { findUserByEmail } from '../../src/db/users'
import { pairDevice } from '../devices/device-client'
import { createOk, validSpec } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'
import { mcpPost, rpc } from '../mcp/mcp-client'
import { connect, ORIGIN } from '../oauth/oauth-client'
import { WebClient } from './web-client'

beforeAll(seedVenues)

const PASSWORD = 'correct horse battery'
const NEW_PASSWORD = 'a brand new passphrase'

/** The reset link in the newest reset mail to `email` since `since`; waits up to 5 s for it. */
async function resetLink(email: string, since: number): Promise<string | null> {
  for (let i = 0; i < 100; i++) {
    const row = await env.DB.prepare(
      "select body from outbox where to_address = ? and created_at >= ? and subject = 'Reset your Tablewatch password' order by id desc limit 1",
    )
      .bind(email, since)
      .first<{ body: string }>()
    const link = row ? /https?:\/\/\S+/.exec(row.body)?.[0] : undefined
    if (link) return link
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return null
}

async function mailsTo(email: string, subject: string, since: number): Promise<number> {
  const row = await env.DB.prepare('select count(*) as n from outbox where to_address = ? and created_at >= ? and subject = ?')
    .bind(email, since, subject)
    .first<{ n: number }>()
  return row?.n ?? 0
}

async function askForReset(client: WebClient, email: string): Promise<Response> {
  return client.post('/password-reset', { email, _csrf: await client.csrfFrom('/password-reset') })
}

/** Opens the link's page and submits its form with `password`. */
async function setPassword(client: WebClient, link: string, password: string): Promise<Response> {
  const url = new URL(link)
  const page = await client.get(url.pathname + url.search)
  expect(page.status).toBe(200)
  const html = await page.text()
  const token = /name="t" value="([^"]+)"/.exec(html)?.[1] ?? ''
  return client.post('/password-reset/set', { t: token, password, _csrf: /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '' })
}

async function patWorks(token: string): Promise<boolean> {
  return (await SELF.fetch('http://localhost/api/v1/requests', { headers: { Authorization: `Bearer ${token}` } })).status === 200
}

async function deviceWorks(credential: string): Promise<boolean> {
  const res = await SELF.fetch('http://localhost/device/v1/connect', { headers: { Authorization: `Bearer ${credential}` } })
  return res.status !== 401 && res.status !== 403
}

const assistantWorks = async (accessToken: string) => (await mcpPost(rpc('tools/list'), { token: accessToken })).status === 200

/** Makes the calendar feed on the Calendar page; its address's path. */
async function makeFeed(client: WebClient): Promise<string> {
  const made = await client.post('/calendar/feed', { _csrf: await client.csrfFrom('/calendar') })
  const path = /\/calendar\/feed\/[A-Za-z0-9_]+\.ics/.exec(await made.text())?.[0]
  if (!path) throw new Error('no feed address on the page')
  return path
}

const feedWorks = async (path: string) => (await SELF.fetch(`http://localhost${path}`)).status === 200

describe('password reset', () => {
  it('is offered on the sign-in page', async () => {
    const html = await (await new WebClient().get('/signin')).text()
    expect(html).toContain('<a href="/password-reset">Forgot password?</a>')
  })

  it('answers an address with an account exactly as one without', async () => {
    const owner = new WebClient()
    const email = await owner.newUser(PASSWORD)
    const since = Date.now()
    const known = await askForReset(new WebClient(), email)
    const unknown = await askForReset(new WebClient(), `nobody-${crypto.randomUUID()}@example.com`)
    for (const res of [known, unknown]) {
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe('/password-reset/sent')
      expect(res.headers.getSetCookie().map((line) => line.split('=')[0])).toEqual(
        known.headers.getSetCookie().map((line) => line.split('=')[0]),
      )
    }
    expect(await resetLink(email, since)).toMatch(/\/password-reset\/set\?t=/)
  })

  it('sets a new password once, ends every session of the account and says so', async () => {
    const owner = new WebClient()
    const email = await owner.newUser(PASSWORD)
    const elsewhere = new WebClient()
    expect((await elsewhere.signIn(email, PASSWORD)).status).toBe(303)
    const since = Date.now()
    await askForReset(new WebClient(), email)
    const link = await resetLink(email, since)
    if (!link) throw new Error('no reset mail')

    const stranger = new WebClient()
    const done = await setPassword(stranger, link, NEW_PASSWORD)
    expect(done.status).toBe(303)
    expect(done.headers.get('location')).toBe('/signin?reset=1')
    expect(await (await stranger.get('/signin?reset=1')).text()).toContain('Every browser was signed out, and every personal access token')

    // Both browsers that were signed in are signed out.
    for (const client of [owner, elsewhere]) expect((await client.get('/settings')).status).toBe(303)
    expect((await new WebClient().signIn(email, PASSWORD)).status).toBe(401)
    expect((await new WebClient().signIn(email, NEW_PASSWORD)).status).toBe(303)
    expect(await mailsTo(email, 'Your Tablewatch password was reset', since)).toBe(1)

    // The link works once; used again, its page offers a new link right there.
    const again = await new WebClient().get(new URL(link).pathname + new URL(link).search)
    expect(again.status).toBe(422)
    const page = await again.text()
    expect(page).toContain('It was used already, has expired or is not complete')
    expect(page).toContain('<form method="post" action="/password-reset"')
    expect(page).toContain('Send me a new link')
  })

  it('lets the browser that used up its sign-in attempts sign in with the new password at once', async () => {
    const owner = new WebClient()
    const email = await owner.newUser(PASSWORD)
    const forgetful = new WebClient()
    for (let i = 0; i < 5; i++) expect((await forgetful.signIn(email, `wrong guess ${i}`)).status).toBe(401)
    expect((await forgetful.signIn(email, PASSWORD)).status).toBe(429)
    const since = Date.now()
    await askForReset(forgetful, email)
    const link = await resetLink(email, since)
    if (!link) throw new Error('no reset mail')
    expect((await setPassword(forgetful, link, NEW_PASSWORD)).status).toBe(303)
    expect((await forgetful.signIn(email, NEW_PASSWORD)).status).toBe(303)
  })

  it('makes the browser that set the new password a known device: guesses from 40 addresses cannot lock it out', async () => {
    const email = await new WebClient().newUser(PASSWORD)
    const phone = new WebClient()
    const since = Date.now()
    await askForReset(phone, email)
    const link = await resetLink(email, since)
    expect((await setPassword(phone, link ?? '', NEW_PASSWORD)).status).toBe(303)
    for (let i = 0; i < 40; i++) await new WebClient().signIn(email, `wrong ${i} password`)
    expect((await new WebClient().signIn(email, NEW_PASSWORD)).status).toBe(429)
    expect((await phone.signIn(email, NEW_PASSWORD)).status).toBe(303)
  })

  it('refuses a link older than 30 minutes, and a forged one, changing nothing', async () => {
    const owner = new WebClient()
    const email = await owner.newUser(PASSWORD)
    const user = await findUserByEmail(dbOf(env.DB), email)
    if (!user) throw new Error('no user')
    const old = await resetToken(env.PLATFORM_TOKEN_KEY, user, Date.now() - RESET_LINK_LIFETIME_MS - 1000)
    const fresh = (await resetToken(env.PLATFORM_TOKEN_KEY, user, Date.now())) ?? ''
    const forged = `${fresh.slice(0, -2)}${fresh.endsWith('AA') ? 'BB' : 'AA'}`
    for (const token of [old, forged]) {
      const client = new WebClient()
      expect((await client.get(`/password-reset/set?t=${token}`)).status).toBe(422)
      const res = await client.post('/password-reset/set', {
        t: token ?? '',
        password: NEW_PASSWORD,
        _csrf: await client.csrfFrom('/password-reset'),
      })
      expect(res.status).toBe(422)
    }
    expect((await new WebClient().signIn(email, PASSWORD)).status).toBe(303)
  })

  it('refuses a form without its CSRF token', async () => {
    const client = new WebClient()
    await client.get('/password-reset')
    expect((await client.post('/password-reset', { email: 'someone@example.com' })).status).toBe(403)
    expect((await client.post('/password-reset/set', { t: 'x.y.z', password: NEW_PASSWORD })).status).toBe(403)
  })

  it('sends at most 3 links an hour to one account, still answering the same', async () => {
    const owner = new WebClient()
    const email = await owner.newUser(PASSWORD)
    const since = Date.now()
    for (let i = 0; i < 5; i++) expect((await askForReset(new WebClient(), email)).status).toBe(303)
    await resetLink(email, since)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await mailsTo(email, 'Reset your Tablewatch password', since)).toBe(3)
  })

  it('takes at most 10 forms in 15 minutes from one address', async () => {
    const client = new WebClient()
    for (let i = 0; i < 10; i++) expect((await askForReset(client, `n${i}-${crypto.randomUUID()}@example.com`)).status).toBe(303)
    const refused = await askForReset(client, 'one-more@example.com')
    expect(refused.status).toBe(429)
    expect(await refused.text()).toContain('Too many reset requests from your network')
  })
})

describe('the sign-in page', () => {
  it('says why it asks, naming only the kind of action, never the request', async () => {
    const owner = new WebClient()
    await owner.newUser(PASSWORD)
    const token = await owner.createToken()
    const view = await createOk(token, validSpec({ title: 'Birthday for 6', mode: 'auto_book' }))
    const approve = `/requests/${String(view.id)}/approve`
    const stranger = new WebClient()
    const sent = await stranger.get(approve)
    expect(sent.status).toBe(303)
    const location = sent.headers.get('location') ?? ''
    expect(location).toBe(`/signin?next=${encodeURIComponent(approve)}`)
    const html = await (await stranger.get(location)).text()
    expect(html).toContain('Sign in to approve or decline a booking request.')
    expect(html).not.toContain('Birthday')
    expect(await (await stranger.get('/signin')).text()).not.toContain('Sign in to approve')
  })

  it("names the dinner when opened from the approval mail's own link, and nothing for a changed one", async () => {
    const owner = new WebClient()
    const email = await owner.newUser(PASSWORD)
    const token = await owner.createToken()
    const view = await createOk(token, validSpec({ title: 'Birthday for 6', party_size: 6, mode: 'auto_book' }))
    let row: { subject: string; body: string } | null = null
    for (let i = 0; i < 100 && !row; i++) {
      row = await env.DB.prepare("select subject, body from outbox where to_address = ? and subject like 'Approve: %'")
        .bind(email)
        .first<{ subject: string; body: string }>()
      if (!row) await new Promise((resolve) => setTimeout(resolve, 50))
    }
    if (!row) throw new Error('no approval mail')
    const link = new URL(/https?:\/\/\S+\/approve\?\S+/.exec(row.body)?.[0] ?? '')
    expect(link.pathname).toBe(`/requests/${String(view.id)}/approve`)
    expect(link.search).not.toContain('Birthday')

    const stranger = new WebClient()
    const sent = await stranger.get(link.pathname + link.search)
    const signInPage = await (await stranger.get(sent.headers.get('location') ?? '')).text()
    expect(signInPage).toContain(`Sign in to approve ${row.subject.replace('Approve: ', '').replaceAll('&', '&amp;')}.`)
    expect(signInPage).toContain('Birthday for 6')

    // A hint changed by one character, or moved to another request's path, says nothing of the dinner.
    const hint = link.searchParams.get('hint') ?? ''
    const changed = `${hint.slice(0, -1)}${hint.endsWith('A') ? 'B' : 'A'}`
    for (const next of [`/requests/${String(view.id)}/approve?hint=${changed}`, `/requests/req_someone_else/approve?hint=${hint}`]) {
      const html = await (await stranger.get(`/signin?next=${encodeURIComponent(next)}`)).text()
      expect(html).toContain('Sign in to approve or decline a booking request.')
      expect(html).not.toContain('Birthday')
    }
  })
})

describe('a password reset ends every credential', () => {
  it('ends every credential (tokens, assistants, devices, calendar feed), says so on the page and in the mail, and the owner makes new ones at once', async () => {
    const owner = new WebClient(ORIGIN)
    const email = await owner.newUser(PASSWORD)
    const userId = (await findUserByEmail(dbOf(env.DB), email))?.id ?? ''
    const token = await owner.createToken('before the reset')
    const assistant = await connect({ browser: { web: owner, userId } })
    const device = await pairDevice(owner)
    const feed = await makeFeed(owner)
    expect([
      await patWorks(token),
      await assistantWorks(assistant.accessToken),
      await deviceWorks(device.credential),
      await feedWorks(feed),
    ]).toEqual([true, true, true, true])

    const since = Date.now()
    await askForReset(new WebClient(), email)
    const link = await resetLink(email, since)
    const browser = new WebClient(ORIGIN)
    expect((await setPassword(browser, link ?? '', NEW_PASSWORD)).status).toBe(303)
    const notice = await (await browser.get('/signin?reset=1')).text()
    expect(notice).toContain('every personal access token, connected assistant, paired device and calendar feed address stopped working')

    expect([
      await patWorks(token),
      await assistantWorks(assistant.accessToken),
      await deviceWorks(device.credential),
      await feedWorks(feed),
    ]).toEqual([false, false, false, false])
    const mail = await env.DB.prepare("select body from outbox where to_address = ? and subject = 'Your Tablewatch password was reset'")
      .bind(email)
      .first<{ body: string }>()
    expect(mail?.body).toContain(
      'every personal access token, connected assistant, paired device and calendar feed address stopped working',
    )

    // Signed in with the new password, the owner makes new ones at once, and they work.
    expect((await browser.signIn(email, NEW_PASSWORD)).status).toBe(303)
    expect(await patWorks(await browser.createToken('after the reset'))).toBe(true)
    expect(await assistantWorks((await connect({ browser: { web: browser, userId } })).accessToken)).toBe(true)
    expect(await deviceWorks((await pairDevice(browser)).credential)).toBe(true)
    expect(await feedWorks(await makeFeed(browser))).toBe(true)
  })
})
