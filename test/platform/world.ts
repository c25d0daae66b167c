// A fresh sandbox world per test: the sandbox keeps one world per API host name, so a random
// host gives each test its own accounts, inventory changes, faults and call counts.
import { env } from 'cloudflare:test'
import { sandboxControl } from '../../sandbox/control-client'
import { addDays, todayIn } from '../../src/lib/zoned-time'
import { createPlatformClient, type PlatformClientOptions } from '../../src/platform/client'

type ClientOptions = Pick<PlatformClientOptions, 'apiKey' | 'userAgent' | 'onProblem' | 'timeoutMs' | 'slowCallTimeoutMs' | 'fetcher'>

/** The sandbox's default home address (sandbox/src/network.ts): a second loopback address. */
export const HOME_ADDRESS = '127.0.0.2'

export function freshWorld(options: Partial<ClientOptions> = {}) {
  const fetcher = env.PLATFORM
  if (!fetcher) throw new Error('the test config must bind PLATFORM to the sandbox worker')
  const baseUrl = `https://${crypto.randomUUID()}.sandbox.test`
  /** Every request the clients of this world sent. */
  const sent: Request[] = []
  const recording = {
    fetch: (request: Request) => {
      // A copy: the fetcher reads the body, a test may read it again.
      sent.push(request.clone())
      return fetcher.fetch(request)
    },
  }
  const client = (more: Partial<ClientOptions> = {}) =>
    createPlatformClient({
      fetcher: recording,
      baseUrl,
      apiKey: env.PLATFORM_API_KEY,
      timeoutMs: 3000,
      retryDelaysMs: [10, 30], // the shape of the production backoff, shorter
      ...options,
      ...more,
    })
  /**
   * A client on the diner's home network: its calls come from HOME_ADDRESS, named in
   * CF-Connecting-IP as wrangler's entry worker names a socket's address (there is no socket in
   * workerd tests). The service's own calls, through the binding, come from no address: the datacenter.
   */
  const homeClient = (more: Partial<ClientOptions> = {}) =>
    client({
      ...more,
      fetcher: {
        fetch: (request: Request) => {
          const headers = new Headers(request.headers)
          headers.set('CF-Connecting-IP', HOME_ADDRESS)
          return recording.fetch(new Request(request, { headers }))
        },
      },
    })
  return { baseUrl, platform: client(), client, homeClient, sent, control: sandboxControl({ fetcher, baseUrl }) }
}

/** Pomelo Garden, New York: no release rule, no fees, so every day in the horizon is on sale. */
export const OPEN_VENUE = { id: 60105, zone: 'America/New_York' }
/** Juniper & Vine, New York: releases 14 days ahead at 09:00, $25 per person fee in the Dining Room. */
export const RELEASE_VENUE = { id: 60101, zone: 'America/New_York' }

export const dayAhead = (days: number, zone = OPEN_VENUE.zone) => addDays(todayIn(zone, Date.now()), days)

/** A slot at a time the generator never uses (it stops at 22:00), so the test owns it. */
export async function ownSlot(
  world: ReturnType<typeof freshWorld>,
  extra: Partial<Parameters<ReturnType<typeof freshWorld>['control']['addSlot']>[0]> = {},
) {
  const slot = { venueId: OPEN_VENUE.id, day: dayAhead(3), time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4, ...extra }
  if (!(await world.control.addSlot(slot))) throw new Error('sandbox refused the slot')
  return slot
}
