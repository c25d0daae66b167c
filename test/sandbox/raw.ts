// A raw call to the sandbox platform as a well-behaved client makes it (browser User-Agent, API
// key, the web app's Origin and Referer), with optional header changes: for checks below the platform client.
import { env } from 'cloudflare:test'
import { DEFAULT_USER_AGENT } from '../../src/platform/user-agent'

export function wire(baseUrl: string, path: string, init: RequestInit & { drop?: string[] } = {}) {
  const headers = new Headers({
    Authorization: `ResyAPI api_key="${env.PLATFORM_API_KEY}"`,
    'User-Agent': DEFAULT_USER_AGENT,
    Origin: 'https://resy.com',
    Referer: 'https://resy.com/',
  })
  for (const [k, v] of new Headers(init.headers)) headers.set(k, v)
  for (const name of init.drop ?? []) headers.delete(name)
  if (!env.PLATFORM) throw new Error('PLATFORM binding missing')
  return env.PLATFORM.fetch(new Request(baseUrl + path, { ...init, headers }))
}

/** Headers of a user-token call. */
export const userHeaders = (token: string) => ({ 'X-Resy-Auth-Token': token, 'X-Resy-Universal-Auth': token })
