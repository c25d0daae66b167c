// The user's webhook as stored: its URL (for Slack and ntfy the URL is itself the secret) and its
// signing secret, sealed together with AES-GCM under PLATFORM_TOKEN_KEY, bound to the user, in
// the one `webhook_url` column (`v1.<iv>.<ciphertext>`). A URL saved before webhooks were sealed
// reads as it was, without a secret, until it is saved again. Pages show it masked only.
import { open, seal } from '../lib/secret-box'

export interface WebhookConfig {
  url: string
  /** Null for a URL stored before signing existed: its posts go unsigned until it is saved again. */
  secret: string | null
}

const VERSION = 'v1'
const owner = (userId: string) => `webhook ${userId}`

export async function sealWebhookConfig(key: string, userId: string, config: { url: string; secret: string }): Promise<string> {
  const sealed = await seal(key, JSON.stringify(config), owner(userId))
  return `${VERSION}.${sealed.iv}.${sealed.ciphertext}`
}

/** The stored value opened; null for none, or for one that does not open for this user. */
export async function openWebhookConfig(key: string, userId: string, stored: string | null): Promise<WebhookConfig | null> {
  if (!stored) return null
  if (!stored.startsWith(`${VERSION}.`)) return URL.canParse(stored) ? { url: stored, secret: null } : null
  const [, iv = '', ciphertext = ''] = stored.split('.')
  try {
    const parsed: unknown = JSON.parse(await open(key, { iv, ciphertext }, owner(userId)))
    if (!parsed || typeof parsed !== 'object' || !('url' in parsed) || typeof parsed.url !== 'string') return null
    const secret = 'secret' in parsed && typeof parsed.secret === 'string' ? parsed.secret : null
    return { url: parsed.url, secret }
  } catch {
    return null
  }
}

/**
 * What a page shows of a webhook URL: its scheme and host, and the last 4 characters of the rest,
 * when the rest is at least 16 long: enough to tell two addresses apart, too little to give away a Slack or ntfy secret.
 */
export function maskedWebhookUrl(url: string): string {
  if (!URL.canParse(url)) return '…'
  const parsed = new URL(url)
  const rest = `${parsed.pathname}${parsed.search}`
  return `${parsed.protocol}//${parsed.host}/…${rest.length >= 16 ? rest.slice(-4) : ''}`
}
