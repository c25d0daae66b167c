// The reset form must not tell by its timing whether an email has an account
// (a probe measured 57.8 ms against 39.3 ms). The answer never waited for the lookup, but the work
// done only for known addresses (a reservation, an HMAC, a write) ran beside it on the same
// isolate and the same D1. Timing is too noisy for a test; what it can see is the work: the form
// sends the real D1 exactly the same statements, in the same order, for an address with an
// account and one without, and only the first gets a mail. (The mail goes through Email Service,
// as in production, recorded here: it is the one thing that differs, and it is sent in the
// background, on the network.)
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import worker from '../../src/index'
import { WebClient } from './web-client'

/** The D1 binding, noting the SQL of every statement it prepares (never the values bound to them). */
function recordingD1(db: D1Database, statements: string[]): D1Database {
  return new Proxy(db, {
    get(target, property) {
      if (property === 'prepare') {
        return (sql: string) => {
          statements.push(sql)
          return target.prepare(sql)
        }
      }
      const value: unknown = Reflect.get(target, property)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/** Email Service, noting who each message went to. */
function recordingEmail(recipients: string[]): SendEmail {
  return {
    async send(message: EmailMessage | EmailMessageBuilder) {
      recipients.push('to' in message ? String(message.to) : '')
      return { messageId: crypto.randomUUID() }
    },
  }
}

/** Asks for a reset of `email` from a fresh browser; what the POST (and its background work) did. */
async function askForReset(email: string): Promise<{ status: number; statements: string[]; mailedTo: string[] }> {
  const statements: string[] = []
  const mailedTo: string[] = []
  const changed = {
    ...env,
    DB: recordingD1(env.DB, statements),
    MAILER: 'cloudflare',
    MAIL_FROM: 'Tablewatch <alerts@tablewatch.example>',
    EMAIL: recordingEmail(mailedTo),
  }
  const browser = new WebClient('http://localhost:8787', undefined, async (request) => {
    const ctx = createExecutionContext()
    const res = await worker.fetch(request, changed, ctx)
    await waitOnExecutionContext(ctx)
    return res
  })
  const csrf = await browser.csrfFrom('/password-reset')
  statements.length = 0
  const res = await browser.post('/password-reset', { email, _csrf: csrf })
  return { status: res.status, statements, mailedTo }
}

describe('asking for a password reset', () => {
  it('sends the same statements to D1 for an address with an account and one without; only the first gets a mail', async () => {
    const email = await new WebClient().newUser()
    const known = await askForReset(email)
    const unknown = await askForReset(`nobody-${crypto.randomUUID()}@example.com`)
    expect([known.status, unknown.status]).toEqual([303, 303])
    expect(known.statements.length).toBeGreaterThan(2)
    expect(unknown.statements).toEqual(known.statements)
    expect(known.mailedTo).toEqual([email])
    expect(unknown.mailedTo).toEqual([])
  })

  it('does the same once the account’s mails for the hour are used up (as when someone asks again and again)', async () => {
    const email = await new WebClient().newUser()
    for (let i = 0; i < 3; i++) expect((await askForReset(email)).mailedTo).toEqual([email])
    const known = await askForReset(email)
    const unknown = await askForReset(`nobody-${crypto.randomUUID()}@example.com`)
    expect(unknown.statements).toEqual(known.statements)
    expect(known.mailedTo).toEqual([])
  })
})
