// Faults for the next alarm phase, and their bookkeeping. The sandbox hands each queued fault
// to the next calls of its endpoint, so the simulation tracks how many are still queued and, at
// the end, uses them up with harmless calls before the final verification.
import { env } from 'cloudflare:test'
import type { Endpoint, FaultInput, SandboxControl } from '../../../sandbox/control-client'
import { platformFromEnv } from '../../../src/platform/from-env'
import { asUser } from '../../helpers/credentials'
import type { Rng } from './random'

type Kind = FaultInput['kind']

export class FaultLedger {
  /** Faults still queued per endpoint, as far as the call counts tell. */
  #queued = new Map<Endpoint, number>()
  #seenCalls: Partial<Record<Endpoint, number>> = {}
  readonly injected = new Map<string, number>()

  constructor(private readonly control: SandboxControl) {}

  /** Re-reads the call counts: every call since the last read took one queued fault, if any. */
  async refresh(): Promise<void> {
    const calls = await this.control.calls()
    for (const [endpoint, queued] of this.#queued) {
      const made = (calls[endpoint] ?? 0) - (this.#seenCalls[endpoint] ?? 0)
      this.#queued.set(endpoint, Math.max(0, queued - made))
    }
    this.#seenCalls = calls
  }

  async inject(fault: FaultInput): Promise<void> {
    await this.refresh()
    await this.control.injectFault(fault)
    const count = fault.count ?? 1
    this.#queued.set(fault.endpoint, (this.#queued.get(fault.endpoint) ?? 0) + count)
    const label = `${fault.endpoint} ${fault.kind}${(fault.hangMs ?? 0) > 8000 ? ' (client timeout)' : ''}`
    this.injected.set(label, (this.injected.get(label) ?? 0) + count)
  }

  /** Lifts any block and the datacenter mode, and uses up every queued fault with calls that cannot book anything. */
  async drain(): Promise<void> {
    await this.control.block({ forMs: 0 })
    await this.control.setSignInSettings({ datacenter: null })
    const platform = platformFromEnv(env, { retryDelaysMs: [] })
    for (let round = 0; round < 50; round++) {
      await this.refresh()
      const pending = [...this.#queued].filter(([, n]) => n > 0)
      if (pending.length === 0) return
      await Promise.all(pending.map(([endpoint]) => harmlessCall(platform, endpoint)))
    }
    throw new Error(`faults still queued after draining: ${JSON.stringify([...this.#queued])}`)
  }
}

async function harmlessCall(platform: ReturnType<typeof platformFromEnv>, endpoint: Endpoint): Promise<void> {
  const nobody = 'not-a-real-token'
  switch (endpoint) {
    case 'find':
      await platform.findSlots({ venueId: 60105, day: '2000-01-01', partySize: 2 })
      return
    case 'details':
      await platform.bookingDetails(asUser(nobody), { configId: 'none', day: '2000-01-01', partySize: 2 })
      return
    case 'book':
      await platform.book(asUser(nobody), { bookToken: 'none', paymentMethodId: null })
      return
    case 'reservations':
      await platform.listReservations(asUser(nobody))
      return
    default:
      await platform.searchVenues('drain')
  }
}

// Faults of each endpoint, with weights. Timeouts shorter than the client's 8 s answer 504
// late; the rare longer ones make the client give up (full runs only: each costs 8 s).
const MENU: Record<'find' | 'details' | 'book' | 'reservations', readonly (readonly [Kind, number])[]> = {
  find: [
    ['429', 3],
    ['500', 2],
    ['503', 3],
    ['timeout', 1],
    // The platform refusing the service's API key: an operator fault, never a reconnect.
    ['419', 1],
    // One slot of an odd shape: skipped, the rest of the answer used.
    ['odd_entry', 1],
  ],
  details: [
    // An expired session answered with a 500 that says so: renewed, and the call made again.
    ['session_500', 1],
    ['429', 1],
    ['500', 2],
    ['503', 2],
    ['412', 1],
    ['timeout', 1],
  ],
  book: [
    ['412', 2],
    ['500', 2],
    ['503', 1],
    ['429', 1],
    ['book_lost', 4],
    // Booked, but answered with the 412 (with specs) a retry of a held table gets.
    ['book_held', 2],
    // Nothing booked, answered 410 "no longer available": the account must disprove it.
    ['gone_410', 2],
    ['timeout', 1],
  ],
  reservations: [
    ['503', 3],
    ['500', 2],
    ['429', 1],
    ['timeout', 1],
    // The account's list lags: the bookings of the last minute are not on it yet.
    ['stale', 2],
    ['session_500', 1],
    ['odd_entry', 1],
  ],
}

const BLOCK_STYLES = ['empty_500', 'plain_500', 'html_403', 'cloudfront', 'imperva'] as const

/**
 * The firewall blocks the service (every call, every endpoint) for a while: short, so the
 * phase's alarms meet it and later ones do not. Blocks are lifted before the final checks.
 */
export async function maybeBlock(rng: Rng, control: SandboxControl, counts: Map<string, number>): Promise<void> {
  if (!rng.chance(0.15)) return
  const style = rng.pick(BLOCK_STYLES)
  await control.block({ forMs: rng.int(200, 2000), style })
  counts.set(`block ${style}`, (counts.get(`block ${style}`) ?? 0) + 1)
}

/** The account calls a round's datacenter mode may refuse to the service's cloud path. */
const CLOUD_REFUSABLE = ['refresh', 'details', 'book', 'reservations'] as const

/**
 * The platform refuses some account calls from the service's network for a round (the sandbox's
 * datacenter mode: the CDN's plain-text 500), as it may at any time: the service must learn it
 * from the answers, book nothing it was not allowed to, and never move a user's booking to their
 * device by itself. Paired devices call from home and are not refused. Off again the next round.
 */
export async function maybeRefuseCloud(rng: Rng, control: SandboxControl, counts: Map<string, number>): Promise<void> {
  if (!rng.chance(0.25)) {
    await control.setSignInSettings({ datacenter: null })
    return
  }
  const refuse = rng.some([...CLOUD_REFUSABLE], 1, CLOUD_REFUSABLE.length)
  await control.setSignInSettings({ datacenter: { refuse } })
  const label = `cloud refuses ${[...refuse].sort().join('+')}`
  counts.set(label, (counts.get(label) ?? 0) + 1)
}

/**
 * Every user's auth token expires at once, before the `exp` the service knows (so nothing renews
 * it ahead): the next user-token calls get 419 and must renew with the refresh token and go on,
 * the book call included, without asking anyone to reconnect.
 */
export async function maybeExpireTokens(rng: Rng, control: SandboxControl, counts: Map<string, number>): Promise<void> {
  if (!rng.chance(0.2)) return
  const expired = await control.expireAuthTokens()
  counts.set('auth tokens expired early', (counts.get('auth tokens expired early') ?? 0) + expired)
}

/**
 * Faults for the next phase, more the more requests are live, sometimes aimed past the first
 * calls with `pass`.
 */
export async function injectRoundFaults(rng: Rng, faults: FaultLedger, live: number, clientTimeouts: boolean): Promise<void> {
  for (const endpoint of ['find', 'details', 'book', 'reservations'] as const) {
    const batches = rng.int(endpoint === 'book' ? 1 : 0, Math.max(1, Math.round(live / 50)))
    for (let b = 0; b < batches; b++) {
      if (rng.chance(0.3)) await faults.inject({ endpoint, kind: 'pass', count: rng.int(1, 4) })
      const kind = rng.weighted(MENU[endpoint])
      const long = clientTimeouts && (kind === 'timeout' || kind === 'book_lost') && rng.chance(0.2)
      const hangMs = kind === 'timeout' ? (long ? 9_000 : rng.int(50, 400)) : kind === 'book_lost' && long ? 9_000 : 0
      await faults.inject({ endpoint, kind, count: rng.int(1, endpoint === 'book' ? 2 : 4), hangMs })
    }
  }
}
