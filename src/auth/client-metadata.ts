// Dynamic client registration (RFC 7591) is open to anyone, so what a client may register is
// capped here before the library stores it, and what the consent page will show is cleaned:
// - the body is at most 16 KB, with at most 30 fields, no string over 4,000 characters and no
//   list over 10 items;
// - names (`client_name`, and `client_name#<lang>`) lose control and bidirectional characters
//   and are at most 100 characters; a name left empty is dropped (the page then shows the id);
// - an http(s) redirect URI's origin must be a plain host name or IP address with an optional
//   port, since the consent page's CSP allows the form to lead there.
import { z } from 'zod'
import { withoutControlCharacters } from '../lib/text'

const MAX_REGISTRATION_BYTES = 16 * 1024
const MAX_FIELDS = 30
const MAX_STRING = 4_000
const MAX_LIST = 10
const MAX_NAME = 100
const MAX_URI = 2_000

/** `scheme://host[:port]` with a DNS name, an IPv4 address or a bracketed IPv6 address. */
const PLAIN_ORIGIN = /^https?:\/\/(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/

/** The origin of an http(s) URL when it is safe to put into a CSP source list, else null. */
export function plainOrigin(uri: string): string | null {
  if (!URL.canParse(uri)) return null
  const { origin, protocol } = new URL(uri)
  if (protocol !== 'https:' && protocol !== 'http:') return null
  return PLAIN_ORIGIN.test(origin) ? origin : null
}

/** A client's name as a person should see it. */
export function displayName(name: string): string {
  return withoutControlCharacters(name).trim()
}

const RedirectUri = z
  .string()
  .max(MAX_URI, `Redirect URIs can be at most ${MAX_URI} characters`)
  .refine((uri) => !/^https?:/i.test(uri) || plainOrigin(uri) !== null, 'An http(s) redirect URI needs a plain host name')

const Limits = z.looseObject({
  redirect_uris: z.array(RedirectUri).max(MAX_LIST, `At most ${MAX_LIST} redirect URIs`).optional(),
  contacts: z.array(z.string().max(320)).max(5, 'At most 5 contacts').optional(),
})

function withinSizes(value: unknown, depth = 0): string | null {
  if (typeof value === 'string') return value.length > MAX_STRING ? `Strings can be at most ${MAX_STRING} characters` : null
  if (depth > 4) return 'The metadata is nested too deeply'
  if (Array.isArray(value)) {
    if (value.length > MAX_LIST) return `Lists can hold at most ${MAX_LIST} items`
    return value.map((item) => withinSizes(item, depth + 1)).find((problem) => problem !== null) ?? null
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
    if (entries.length > MAX_FIELDS) return `At most ${MAX_FIELDS} metadata fields`
    return entries.map(([, item]) => withinSizes(item, depth + 1)).find((problem) => problem !== null) ?? null
  }
  return null
}

function cleanNames(metadata: Record<string, unknown>): Record<string, unknown> | string {
  const cleaned: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(metadata)) {
    if ((key === 'client_name' || key.startsWith('client_name#')) && typeof value === 'string') {
      const name = displayName(value)
      if (name.length > MAX_NAME) return `client_name can be at most ${MAX_NAME} characters`
      if (name !== '') cleaned[key] = name
    } else cleaned[key] = value
  }
  return cleaned
}

export type CheckedRegistration = { ok: true; body: string } | { ok: false; description: string }

/** The registration body the library may see, or why it is refused (`invalid_client_metadata`). */
/** The grant types this authorization server issues tokens for. */
const SUPPORTED_GRANT_TYPES = new Set(['authorization_code', 'refresh_token'])

/**
 * Grant types a client lists beside the ones used here (older VS Code adds the device code
 * grant) are dropped rather than refusing the client, as the library does for a metadata
 * document; the answer's grant_types says what was registered. A client that lists none of
 * ours is left for the library to refuse.
 */
function withSupportedGrants(metadata: Record<string, unknown>): Record<string, unknown> {
  const listed = metadata.grant_types
  if (!Array.isArray(listed)) return metadata
  const supported = listed.filter((grant) => typeof grant === 'string' && SUPPORTED_GRANT_TYPES.has(grant))
  return supported.length > 0 && supported.length < listed.length ? { ...metadata, grant_types: supported } : metadata
}

export function checkRegistration(text: string): CheckedRegistration {
  if (new TextEncoder().encode(text).byteLength > MAX_REGISTRATION_BYTES) {
    return { ok: false, description: `The registration can be at most ${MAX_REGISTRATION_BYTES / 1024} KB` }
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return { ok: false, description: 'The registration is not valid JSON' }
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return { ok: false, description: 'The registration must be a JSON object' }
  const problem = withinSizes(json)
  if (problem) return { ok: false, description: problem }
  const limited = Limits.safeParse(json)
  if (!limited.success) return { ok: false, description: limited.error.issues[0]?.message ?? 'Invalid client metadata' }
  const cleaned = cleanNames(limited.data)
  if (typeof cleaned === 'string') return { ok: false, description: cleaned }
  return { ok: true, body: JSON.stringify(withSupportedGrants(cleaned)) }
}
