// Dynamic client registration (RFC 7591) at the scale of real hosts. Claude.ai, ChatGPT and other
// hosted assistants register from a few shared backend addresses, one registration per user who
// adds the connector, so a plain per-address cap refuses their next user; a flood of junk clients
// must still be refused. So (docs/decisions/auth.md, "Dynamic registration"):
// - a registration is identified by its address and its metadata (the fingerprint below); each
//   fingerprint has one Durable Object (src/auth/registration-object.ts), which answers them one
//   after the other;
// - an identical registration of a public client (token_endpoint_auth_method "none") is answered
//   with the client registered the first time, as long as it exists: a public client's id is no
//   secret, and the same metadata from the same address is the same app;
// - an identical registration of a confidential client gets a new client: the library keeps only
//   a hash of the secret, so the first client's secret cannot be handed out again (and must not
//   be: it would give one install another's credentials);
// - new metadata from an address takes from a small budget (a flood of distinct junk), every new
//   client from a much larger one (a shared backend's confidential clients).
// A request without CF-Connecting-IP (local tests; Cloudflare always sets it) is neither counted
// nor shared.
import { addressKey } from '../lib/address-key'
import { sha256Hex } from '../lib/random'
import { responseOf, tokenCallOf } from './token-call'

/** The key every part of a JSON value is in, sorted, so equal metadata gives equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/** The address (an IPv6 /64 counts as one) and the metadata as the library will see it. */
async function registrationFingerprint(address: string, checkedBody: string): Promise<string> {
  return sha256Hex(`${addressKey(address)}\n${canonicalJson(JSON.parse(checkedBody))}`)
}

/**
 * Registers a client whose metadata passed checkRegistration (`request` carries that body), in
 * the object of its fingerprint, or answers the one registered before.
 */
export async function registerFromAddress(env: Cloudflare.Env, request: Request, address: string, checkedBody: string): Promise<Response> {
  const fingerprint = await registrationFingerprint(address, checkedBody)
  const object = env.REGISTRATIONS.get(env.REGISTRATIONS.idFromName(fingerprint))
  return responseOf(await object.register(await tokenCallOf(request), addressKey(address)))
}
