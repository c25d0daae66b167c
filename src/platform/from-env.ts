// Builds the one platform client from configuration. The PLATFORM service binding exists only
// where wrangler.toml / the test config declare it (the local sandbox); otherwise the public
// internet is used. The client code is the same either way.
import type { Platform } from './api'
import { createPlatformClient, type PlatformClientOptions } from './client'

const DEFAULT_TIMEOUT_MS = 8000

type PlatformEnv = Pick<
  Cloudflare.Env,
  'PLATFORM' | 'PLATFORM_BASE_URL' | 'PLATFORM_API_KEY' | 'PLATFORM_USER_AGENT' | 'PLATFORM_WEB_ORIGIN'
>

export function platformFromEnv(env: PlatformEnv, overrides: Partial<PlatformClientOptions> = {}): Platform {
  const binding = env.PLATFORM
  return createPlatformClient({
    fetcher: binding ?? { fetch: (request) => fetch(request) },
    baseUrl: env.PLATFORM_BASE_URL,
    apiKey: env.PLATFORM_API_KEY,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    userAgent: env.PLATFORM_USER_AGENT,
    webOrigin: env.PLATFORM_WEB_ORIGIN,
    ...overrides,
  })
}
