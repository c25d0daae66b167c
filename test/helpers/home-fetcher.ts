// The sandbox platform reached from the diner's home (workerd tests): through its binding, with
// the second local address the entry worker would name in CF-Connecting-IP, so the sandbox's
// datacenter mode (sandbox/src/network.ts) takes the call for a paired device's, not the cloud's.
import { env } from 'cloudflare:test'

export const HOME_ADDRESS = '127.0.0.2'

export function homeFetcher() {
  const binding = env.PLATFORM
  if (!binding) throw new Error('PLATFORM must be bound to the sandbox worker')
  return {
    fetch(request: Request) {
      const headers = new Headers(request.headers)
      headers.set('CF-Connecting-IP', HOME_ADDRESS)
      return binding.fetch(new Request(request, { headers }))
    },
  }
}
