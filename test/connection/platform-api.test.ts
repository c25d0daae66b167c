// The JSON platform API (the settings page's use cases, for a script in the signed-in browser):
// a code sign-in step by step, its refusals in the contract's `{code, message}` with the page's
// words, and CSRF on every step.
import { beforeEach, describe, expect, it } from 'vitest'
import { control } from '../watch/world'
import { WebClient } from '../web/web-client'

beforeEach(async () => {
  await control().reset()
})

async function api(client: WebClient, path: string, body: unknown, csrf: string | null) {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
  }
  if (csrf) headers['x-csrf-token'] = csrf
  const res = await client.fetcher(
    new Request(`${client.origin}/account/platform${path}`, { method: 'POST', headers, body: JSON.stringify(body) }),
  )
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

describe('the JSON platform API', () => {
  it('connects a code-only account step by step, says a wrong code in the page’s words, and refuses a step without the CSRF token', async () => {
    const client = new WebClient()
    await client.newUser()
    const state = (await (await client.get('/account/platform')).json()) as { csrf_token: string; sign_in_under_way: unknown }
    expect(state.sign_in_under_way).toBeNull()
    const csrf = state.csrf_token
    const mobileNumber = '+16465550142'
    const email = `api-${crypto.randomUUID().slice(0, 6)}@example.test`
    await control().createAccount({ email, password: null, mobileNumber, card: true, challenge: true })

    expect((await api(client, '/code', { mobile_number: mobileNumber }, null)).status).toBe(403)
    expect(await api(client, '/code', { mobile_number: mobileNumber }, csrf)).toEqual({
      status: 200,
      body: { step: 'code_sent', number_hint: '0142', via: 'cloud' },
    })
    const wrong = await api(client, '/code/check', { code: '000000', acknowledge_risk: true }, csrf)
    expect(wrong.status).toBe(422)
    expect(wrong.body).toMatchObject({
      code: 'platform_sign_in_refused',
      message: expect.stringContaining('That code is not the one the platform sent.'),
    })
    const code = (await control().lastCode(mobileNumber)) ?? 'none'
    expect((await api(client, '/code/check', { code, acknowledge_risk: false }, csrf)).body).toMatchObject({
      code: 'risk_not_acknowledged',
    })
    expect((await api(client, '/code/check', { code, acknowledge_risk: true }, csrf)).body).toEqual({ step: 'email_needed', via: 'cloud' })
    const connected = await api(client, '/code/email', { email }, csrf)
    expect(connected.body).toMatchObject({ step: 'connected', connected: true })
  })

  it('the diner’s own cap on codes (5 an hour) answers 429 with Retry-After, the same on the JSON API and the page', async () => {
    const client = new WebClient()
    await client.newUser()
    const csrf = ((await (await client.get('/account/platform')).json()) as { csrf_token: string }).csrf_token
    const mobileNumber = '+16465550143'
    await control().createAccount({
      email: `cap-${crypto.randomUUID().slice(0, 6)}@example.test`,
      password: null,
      mobileNumber,
      card: true,
    })
    for (let i = 0; i < 5; i++) expect((await api(client, '/code', { mobile_number: mobileNumber }, csrf)).status).toBe(200)

    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const json = await client.fetcher(
      new Request(`${client.origin}/account/platform/code`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'x-csrf-token': csrf, Cookie: cookie },
        body: JSON.stringify({ mobile_number: mobileNumber }),
      }),
    )
    const page = await client.post('/settings/platform/code', { mobile_number: mobileNumber, _csrf: await client.csrfFrom('/settings') })
    for (const answer of [json, page]) {
      expect(answer.status).toBe(429)
      const wait = Number(answer.headers.get('Retry-After'))
      expect(wait).toBeGreaterThan(0)
      expect(wait).toBeLessThanOrEqual(3600)
    }
    expect(await json.json()).toEqual({
      code: 'sign_in_limit',
      message: expect.stringMatching(/^Too many sign-in attempts in a short time\. Wait \d+ minutes?, then try again\.$/),
    })
    expect(await page.text()).toContain('Too many sign-in attempts in a short time.')
  })
})
