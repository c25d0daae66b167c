// Lapsing sessions, kept small: about one cloud user in ten has an account
// without a password, signs in by the texted code, and gets no refresh token, so each of their
// sessions ends TOKEN_SECONDS after it began (world.ts). Now and then such a user signs in again.
// Their requests must go on watching while the session is over (the count below), and every other
// count holds for them as for anyone: nothing is booked with an ended session, and a reconnect
// only lets booking resume under the usual checks.
import { env } from 'cloudflare:test'
import type { SandboxControl } from '../../../sandbox/control-client'
import { depsOf } from '../../../src/runtime/deps'
import { type CodeAccount, connectByCode } from '../../helpers/code-sign-in'
import type { Rng } from './random'
import { REFRESH_SECONDS, TOKEN_SECONDS } from './world'

/** The share of cloud users whose sessions lapse. */
const LAPSING_SHARE = 0.1
/** Each round, the chance that a lapsing user signs in again. */
const RECONNECT_CHANCE = 0.25
/** The session of the last sign-in, at the end of the run. */
const OUTLASTS_THE_RUN_SECONDS = 3_600

export interface LapseStats {
  users: number
  signIns: number
  /** Sign-ins the platform refused at the time (a block of the round): tried again later. */
  refusedSignIns: number
  /** Tables an approved auto_book request told "reconnect to book" (each once), as traced. */
  toldReconnectToBook: number
}

export class Lapses {
  readonly stats: LapseStats = { users: 0, signIns: 0, refusedSignIns: 0, toldReconnectToBook: 0 }
  readonly #accounts = new Map<string, CodeAccount>()
  readonly #chosen: Set<number>

  /** Which users lapse is drawn from a generator of its own: the run's plan stays as the seed makes it. */
  constructor(rng: Rng, userCount: number, takes: (i: number) => boolean) {
    this.#chosen = new Set(Array.from({ length: userCount }, (_, i) => i).filter((i) => takes(i) && rng.chance(LAPSING_SHARE)))
  }

  /** Whether user `i` lapses (it is then connected by code here, not with a password). */
  lapses(i: number): boolean {
    return this.#chosen.has(i)
  }

  /** Makes the user's code-only account; it signs in with the others once the world is set up (connectAll). */
  async add(control: SandboxControl, userId: string, email: string, i: number): Promise<void> {
    const account = { email, mobileNumber: `+1646${String(i).padStart(7, '0')}` }
    await control.createAccount({ ...account, password: null, challenge: i % 2 === 0 })
    this.#accounts.set(userId, account)
    this.stats.users += 1
  }

  async connectAll(control: SandboxControl): Promise<void> {
    await this.#withoutRefresh(control, async () => {
      for (const [userId, account] of this.#accounts) await this.#signIn(control, userId, account)
    })
  }

  /** Some lapsing users sign in again (their session may or may not have ended yet). */
  async reconnectSome(rng: Rng, control: SandboxControl): Promise<void> {
    const again = [...this.#accounts].filter(() => rng.chance(RECONNECT_CHANCE))
    if (again.length === 0) return
    await this.#withoutRefresh(control, async () => {
      for (const [userId, account] of again) await this.#signIn(control, userId, account)
    })
  }

  /**
   * The end of the run: every lapsing user signs in once more, as one told to reconnect does, and
   * this session outlasts the run (still without a refresh token, so asking them to reconnect
   * stays right), so a booking that landed while their account could not be read can still be
   * found and recorded.
   */
  async reconnectForGood(control: SandboxControl): Promise<void> {
    await control.setTokenLifetimes({ authSeconds: OUTLASTS_THE_RUN_SECONDS, refreshSeconds: REFRESH_SECONDS })
    try {
      await this.#withoutRefresh(control, async () => {
        for (const [userId, account] of this.#accounts) await this.#signIn(control, userId, account)
      })
    } finally {
      await control.setTokenLifetimes({ authSeconds: TOKEN_SECONDS, refreshSeconds: REFRESH_SECONDS })
    }
  }

  /** A sign-in the platform refuses now (a firewall block of the round) is tried again another round, as a diner would. */
  async #signIn(control: SandboxControl, userId: string, account: CodeAccount): Promise<void> {
    try {
      await connectByCode(depsOf(env), control, userId, account)
      this.stats.signIns += 1
    } catch {
      this.stats.refusedSignIns += 1
    }
  }

  /**
   * The world's code sign-ins hand out no refresh token meanwhile (the sandbox's setting is the
   * world's, not the account's), and whatever the run set before is put back: no other sign-in
   * runs while this one does.
   */
  async #withoutRefresh(control: SandboxControl, work: () => Promise<void>): Promise<void> {
    const before = (await control.signInSettings()).codeSessionRefresh
    await control.setSignInSettings({ codeSessionRefresh: 'none' })
    try {
      await work()
    } finally {
      await control.setSignInSettings({ codeSessionRefresh: before })
    }
  }
}

/** How a request says its watching paused for its user's platform session (decide-watch.ts): it must never: it watches on. */
export const PAUSED_FOR_THE_SESSION = /^Waiting: the reservation platform account needs reconnecting/

/** The trace line of a table told "reconnect to book". */
export const TOLD_RECONNECT = /^Not booked: .*: reconnect to book/
