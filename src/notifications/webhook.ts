// The user's optional webhook (ntfy- or Slack-style): one JSON POST, 5 s at most.
// Used by the settings page ("send a test") and by the watcher for alerts.
import { z } from 'zod'

export const WEBHOOK_TIMEOUT_MS = 5_000

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** https anywhere, plain http only to this machine (for local receivers while developing). */
export const webhookUrlSchema = z
  .url({ protocol: /^https?$/, error: 'Enter a full URL starting with https://' })
  .max(2000, 'That URL is too long')
  .refine((value) => {
    // Unparseable values already failed the URL check above; this rule is about the scheme.
    if (!URL.canParse(value)) return true
    const url = new URL(value)
    return url.protocol === 'https:' || LOCAL_HOSTS.has(url.hostname)
  }, 'Use an https:// address (plain http is allowed only for localhost)')

export interface WebhookMessage {
  title: string
  text: string
  link?: string
}

export type WebhookResult = { ok: true; status: number } | { ok: false; reason: 'timeout' | 'network' | 'rejected'; status?: number }

export interface WebhookOptions {
  /** Defaults to the global fetch; a service binding or test receiver may stand in. */
  fetcher?: (request: Request) => Promise<Response>
  timeoutMs?: number
}

export async function sendWebhook(url: string, message: WebhookMessage, options: WebhookOptions = {}): Promise<WebhookResult> {
  const fetcher = options.fetcher ?? ((request: Request) => fetch(request))
  const signal = AbortSignal.timeout(options.timeoutMs ?? WEBHOOK_TIMEOUT_MS)
  // Slack shows only `text`, so the link goes into it too; ntfy-style receivers read title and link.
  const text = message.link ? `${message.text}\n${message.link}` : message.text
  const body = JSON.stringify({ title: message.title, text, ...(message.link ? { link: message.link } : {}) })
  const request = new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal, redirect: 'manual' })
  try {
    const response = await fetcher(request)
    await response.body?.cancel()
    return response.ok ? { ok: true, status: response.status } : { ok: false, reason: 'rejected', status: response.status }
  } catch {
    if (signal.aborted) return { ok: false, reason: 'timeout' }
    return { ok: false, reason: 'network' }
  }
}
