// `tablewatch-device login`: the device's sign-in, by the code texted to the phone (then the
// email, when the platform asks) or by password, with the service's client against the sandbox,
// from the user's own network (docs/platform.md, "Sign-in", "Where calls may come from").
import { describe, expect, it } from 'vitest'
import { type Prompter, signInOnDevice } from '../../device/src/sign-in'
import { freshWorld } from '../platform/world'

type World = ReturnType<typeof freshWorld>

const NUMBER = '+12125550123'

/** A terminal that answers from a script; `code` reads the code off the sandbox's phone. */
function terminal(world: World, answers: (string | 'code' | 'wrong code')[]) {
  const said: string[] = []
  const asked: string[] = []
  const prompter: Prompter = {
    async ask(question) {
      asked.push(question)
      const next = answers.shift()
      if (next === undefined) throw new Error(`unexpected question: ${question}`)
      if (next === 'code' || next === 'wrong code') {
        const code = await world.control.lastCode(NUMBER)
        if (!code) throw new Error('no code texted')
        return next === 'code' ? code : code === '000000' ? '111111' : '000000'
      }
      return next
    },
    say: (line) => said.push(line),
  }
  return { prompter, said, asked }
}

describe('tablewatch-device login', () => {
  it('signs in by code from the home network where the platform refuses the cloud: number, code (typed again once), email', async () => {
    const world = freshWorld()
    await world.control.createAccount({ email: 'ada@example.com', mobileNumber: NUMBER, password: null })
    await world.control.setSignInSettings({ datacenter: { refuse: ['sign_in', 'refresh'], homeAddresses: ['127.0.0.2'] } })
    const { prompter, said, asked } = terminal(world, ['(212) 555-0123', 'wrong code', 'code', 'ada@example.com'])
    const got = await signInOnDevice(world.homeClient(), { by: 'code', mobileNumber: null, email: null }, prompter)
    expect(got).toMatchObject({
      kind: 'signed_in',
      session: { displayName: 'Ada Guest', refreshToken: null, paymentMethodId: expect.any(Number) },
    })
    if (got.kind === 'signed_in') expect(Object.keys(got.session.cdnCookies ?? {}).length).toBe(3)
    expect(asked).toHaveLength(4)
    expect(said).toContain(`The platform texted a code to ${NUMBER}.`)
    expect(said).toContain('that code is not right; try again.')
  })

  it('says plainly when the platform refuses this network’s sign-in', async () => {
    const world = freshWorld()
    await world.control.setSignInSettings({ datacenter: { refuse: ['sign_in'], homeAddresses: ['127.0.0.2'] } })
    const { prompter } = terminal(world, [])
    const got = await signInOnDevice(world.platform, { by: 'code', mobileNumber: NUMBER, email: null }, prompter)
    expect(got).toEqual({ kind: 'failed', message: expect.stringMatching(/refused this network’s sign-in/) })
  })

  it('signs in by password, and sends a code-only account to the code', async () => {
    const world = freshWorld()
    const { prompter } = terminal(world, [])
    expect(await signInOnDevice(world.platform, { by: 'password', email: 'grace@example.com', password: 'pw' }, prompter)).toMatchObject({
      kind: 'signed_in',
      session: { displayName: 'Grace Guest', refreshToken: expect.any(String), refreshVia: 'cookie' },
    })
    await world.control.createAccount({ email: 'ada@example.com', mobileNumber: NUMBER, password: null })
    await world.control.setSignInSettings({ noPasswordSaysSo: true })
    expect(await signInOnDevice(world.platform, { by: 'password', email: 'ada@example.com', password: 'guess' }, prompter)).toEqual({
      kind: 'failed',
      message: expect.stringMatching(/no password: sign in with a code/),
    })
  })

  it('refuses a phone number it cannot read without calling the platform', async () => {
    const world = freshWorld()
    const { prompter } = terminal(world, ['555'])
    expect(await signInOnDevice(world.platform, { by: 'code', mobileNumber: null, email: null }, prompter)).toMatchObject({
      kind: 'failed',
    })
    expect(world.sent).toHaveLength(0)
  })
})
