// Where a webhook may point. The service posts to the URL a user saved, from inside Cloudflare's
// network, so the URL must not be a way to reach what only the service can reach (SSRF): https
// only, on its default port 443, to a public host (src/lib/public-host.ts). Local development may
// also post over plain http to this machine, on any port (LOCAL_DEVELOPMENT = "on", set only in
// the local configuration).
import { isLocalDevelopment } from '../core/deployment'
import { isLoopbackHost, publicHostProblem } from '../lib/public-host'

export interface WebhookPolicy {
  /** Plain http to localhost, 127.0.0.0/8 or [::1], any port: local development only. */
  allowLoopbackHttp: boolean
}

export function webhookPolicy(env: Pick<Cloudflare.Env, 'LOCAL_DEVELOPMENT'>): WebhookPolicy {
  return { allowLoopbackHttp: isLocalDevelopment(env) }
}

/** Why a webhook may not point at this URL, in words for the settings page, or null if it may. */
export function webhookTargetProblem(url: URL, policy: WebhookPolicy): string | null {
  // A name may end in the root's dot ("localhost."), which names the same host.
  const host = url.hostname.replace(/\.$/, '')
  if (url.protocol === 'http:' && policy.allowLoopbackHttp && isLoopbackHost(host)) return null
  if (url.protocol !== 'https:') return 'Use an https:// address'
  if (url.port !== '') return 'Use the standard https port (443): leave the port out'
  return publicHostProblem(host)
}
