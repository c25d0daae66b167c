// A browser's push subscription as `PushSubscription.toJSON()` gives it (Push API), checked before
// it is stored: the endpoint must be a URL the service may post to, the keys the sizes RFC 8291
// (section 3.2) fixes (p256dh: an uncompressed P-256 point, 65 bytes; auth: 16 bytes).
import { z } from 'zod'
import { isLoopbackHost, publicHostProblem } from '../../lib/public-host'
import { fromBase64Url } from './base64url'

export interface EndpointPolicy {
  /** https to this machine on any port: local development and its tests (a loopback push service). */
  allowLoopback: boolean
}

/**
 * Why the service may not post to this endpoint, or null. The service posts to it from inside
 * Cloudflare's network and the browser's script chose it, so like a webhook (SSRF) it must be
 * https on the default port to a public host. Every push service is (FCM, Mozilla autopush,
 * Apple's web.push.apple.com); RFC 8030, section 5 requires https.
 */
function endpointProblem(url: URL, policy: EndpointPolicy): string | null {
  const host = url.hostname.replace(/\.$/, '')
  if (url.protocol !== 'https:') return 'A push endpoint must use https'
  if (policy.allowLoopback && isLoopbackHost(host)) return null
  if (url.port !== '') return 'A push endpoint must use the standard https port'
  return publicHostProblem(host)
}

const keyOfLength = (bytes: number, what: string) =>
  z.string().refine((value) => fromBase64Url(value)?.length === bytes, `${what} must be ${bytes} bytes, base64url`)

export function browserSubscriptionSchema(policy: EndpointPolicy) {
  return z.object({
    endpoint: z
      .string()
      .max(2000, 'The push endpoint is too long')
      .refine((value) => URL.canParse(value), 'The push endpoint must be a URL')
      .superRefine((value, ctx) => {
        const problem = URL.canParse(value) ? endpointProblem(new URL(value), policy) : null
        if (problem) ctx.addIssue({ code: 'custom', message: problem })
      }),
    expirationTime: z.number().nullable().optional(),
    keys: z.object({ p256dh: keyOfLength(65, 'keys.p256dh'), auth: keyOfLength(16, 'keys.auth') }),
  })
}

/** What is sealed at rest and handed to the sender: the endpoint and its two keys. */
export interface StoredSubscription {
  endpoint: string
  keys: { p256dh: string; auth: string }
}
