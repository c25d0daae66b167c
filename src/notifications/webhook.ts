// The user's optional webhook: one POST in the format they chose (webhook-body.ts), 5 s at most,
// never following redirects, signed with the user's secret. Used by the settings page ("send a test") and by the watcher for alerts.
// Where it may point is decided in webhook-target.ts, when it is saved and again when it is sent.
import { z } from 'zod'
import type { WebhookPayload } from './webhook-body'
import { signatureHeaders } from './webhook-signature'
import { type WebhookPolicy, webhookTargetProblem } from './webhook-target'

const WEBHOOK_TIMEOUT_MS = 5_000

/** A webhook URL as the settings form accepts it under `policy`. */
export function webhookUrlSchema(policy: WebhookPolicy) {
  return z
    .url({ protocol: /^https?$/, error: 'Enter a full URL starting with https://' })
    .max(2000, 'That URL is too long')
    .superRefine((value, ctx) => {
      // Unparseable values already failed the URL check above.
      const problem = URL.canParse(value) ? webhookTargetProblem(new URL(value), policy) : null
      if (problem) ctx.addIssue({ code: 'custom', message: problem })
    })
}

export type WebhookResult =
  | { ok: true; status: number }
  | { ok: false; reason: 'timeout' | 'network' | 'rejected' | 'refused'; status?: number }

export interface WebhookOptions {
  /** Where the URL may point; checked again here, since a stored URL may predate the rules. */
  policy: WebhookPolicy
  /** Defaults to the global fetch; a service binding or test receiver may stand in. */
  fetcher?: (request: Request) => Promise<Response>
  timeoutMs?: number
  /** The user's signing secret: the post carries its timestamp and signature (webhook-signature.ts). */
  signingSecret?: string | null
}

export async function sendWebhook(url: string, payload: WebhookPayload, options: WebhookOptions): Promise<WebhookResult> {
  if (!URL.canParse(url) || webhookTargetProblem(new URL(url), options.policy)) return { ok: false, reason: 'refused' }
  const fetcher = options.fetcher ?? ((request: Request) => fetch(request))
  const signal = AbortSignal.timeout(options.timeoutMs ?? WEBHOOK_TIMEOUT_MS)
  const signed = options.signingSecret ? await signatureHeaders(options.signingSecret, payload.body, Date.now()) : {}
  const headers = { ...payload.headers, ...signed }
  const request = new Request(url, { method: 'POST', headers, body: payload.body, signal, redirect: 'manual' })
  try {
    const response = await fetcher(request)
    await response.body?.cancel()
    return response.ok ? { ok: true, status: response.status } : { ok: false, reason: 'rejected', status: response.status }
  } catch {
    if (signal.aborted) return { ok: false, reason: 'timeout' }
    return { ok: false, reason: 'network' }
  }
}
