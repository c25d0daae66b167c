// The sandbox platform's accounts and sign-in settings, as the connect tests use them: a password
// account, a code-only account (no password; its code is texted to the sandbox's phone), the
// datacenter mode that refuses account calls to the service's cloud path, and /3/auth/password
// removed. The phone is read as a diner reads theirs: its page, in a browser.
import type { Page } from 'playwright-core'
import type { SandboxControl } from '../../sandbox/control-client'

/** A fresh US mobile number of the 555-01xx range kept for fiction. */
const freshNumber = () => `+1212555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`

export async function passwordAccount(sandbox: SandboxControl) {
  const email = `pw-${crypto.randomUUID().slice(0, 8)}@example.com`
  const password = 'sandbox-password-1'
  await sandbox.createAccount({ email, password, mobileNumber: freshNumber(), card: true })
  return { email, password }
}

/** An account without a password that asks for its email after the code (the challenge). */
export async function codeOnlyAccount(sandbox: SandboxControl) {
  const email = `code-${crypto.randomUUID().slice(0, 8)}@example.com`
  const mobileNumber = freshNumber()
  await sandbox.createAccount({ email, password: null, mobileNumber, card: true, challenge: true })
  return { email, mobileNumber }
}

/** The code last texted to the number, read off the sandbox's phone page. */
export async function readTextedCode(phone: Page, sandboxUrl: string, mobileNumber: string): Promise<string> {
  const deadline = Date.now() + 15_000
  for (;;) {
    await phone.goto(`${sandboxUrl}/__sandbox/phone?${new URLSearchParams({ number: mobileNumber })}`)
    const code = /\b(\d{6})\b/.exec(await phone.locator('body').innerText())?.[1]
    if (code) return code
    if (Date.now() > deadline) throw new Error(`no code texted to ${mobileNumber}`)
    await phone.waitForTimeout(300)
  }
}

/** Datacenter mode: sign-in and refresh (and, with `booking`, details and book) refused to the cloud path; null: off. */
export async function setCloudRefusals(sandbox: SandboxControl, refuse: { signIn: boolean; booking: boolean } | null): Promise<void> {
  if (!refuse) {
    await sandbox.setSignInSettings({ datacenter: null })
    return
  }
  const calls = [...(refuse.signIn ? (['sign_in', 'refresh'] as const) : []), ...(refuse.booking ? (['details', 'book'] as const) : [])]
  await sandbox.setSignInSettings({ datacenter: { refuse: calls } })
}

/** /3/auth/password there (the default) or removed, so a password sign-in can only go through /4. */
export async function setPasswordV3(sandbox: SandboxControl, there: boolean): Promise<void> {
  await sandbox.setSignInSettings({ passwordPaths: there ? ['/4/auth/password', '/3/auth/password'] : ['/4/auth/password'] })
}
