// Where a call comes from, told apart the way the platform tells a datacenter from a home: by the
// address the call comes from (docs/platform.md, "Where calls may come from": one team measured
// sign-in and refresh answering the CDN's 500 from a datacenter machine and normally from a home
// one, while /4/find worked from both, [idx 60497690475], [idx 60419814503]). Every Cloudflare
// Worker subrequest carries a `CF-Worker` header it cannot remove (Cloudflare's HTTP headers
// reference; cloudflare-docs#19516), from Cloudflare's shared ranges: the service's cloud path.
//
// Locally: `wrangler dev` sets `CF-Connecting-IP` to the socket's address for a call that does not
// carry one (miniflare's entry worker), and adds `CF-Worker` to a Worker's outbound fetches
// (miniflare's outbound worker). So a paired device that calls from a second loopback address
// (127.0.0.2: `tablewatch-device --local-address 127.0.0.2`) is "home"; the service, through its
// service binding (no address at all) or from 127.0.0.1, or any Worker's fetch, is the datacenter.
// In the workerd tests there is no socket: a test's "home" fetcher names its address in
// CF-Connecting-IP, as the entry worker would (docs/decisions/platform-account.md).
import type { AccountCall, SignInSettings } from './schemas'

export type Network = 'home' | 'datacenter'

/** What a call says of where it comes from: a Worker's header, and the address it came from. */
export interface CallOrigin {
  cfWorker: boolean
  address: string | null
}

export const callOriginOf = (headers: Headers): CallOrigin => ({
  cfWorker: headers.has('CF-Worker'),
  address: headers.get('CF-Connecting-IP')?.trim() || null,
})

export function networkOf(origin: CallOrigin, homeAddresses: readonly string[]): Network {
  if (origin.cfWorker || origin.address === null) return 'datacenter'
  return homeAddresses.includes(origin.address) ? 'home' : 'datacenter'
}

/** The account call a platform path is, or null for a key-only read (which the datacenter mode never refuses). */
export function accountCallOf(path: string): AccountCall | null {
  switch (path.replace(/\/+$/, '')) {
    case '/4/auth/password':
    case '/3/auth/password':
    case '/4/auth/mobile':
    case '/4/auth/challenge':
      return 'sign_in'
    case '/3/auth/refresh':
      return 'refresh'
    case '/2/user':
      return 'user'
    case '/3/details':
      return 'details'
    case '/3/book':
      return 'book'
    case '/3/user/reservations':
      return 'reservations'
    default:
      return null
  }
}

/** Whether the datacenter mode refuses this call from where it comes. */
export function refusedFromHere(settings: SignInSettings, path: string, origin: CallOrigin): boolean {
  const datacenter = settings.datacenter
  const call = accountCallOf(path)
  if (!datacenter || !call || !datacenter.refuse.includes(call)) return false
  return networkOf(origin, datacenter.homeAddresses) === 'datacenter'
}
