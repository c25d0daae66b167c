// RFC 8252, section 7.1 private-use URI scheme redirects (`cursor://anysphere.cursor-mcp/oauth/callback`,
// `com.example.app:/oauth`): the way native hosts such as Cursor get the authorization code back.
// The library accepts them in authorization requests only with `allowPrivateUseRedirectUris`
// (it still refuses dangerous schemes such as `javascript:` and any URI with userinfo or a
// fragment); this module is what the consent page needs to show and allow them.

/** Schemes that are never an app's own: web, script and local-resource schemes. */
const NOT_PRIVATE_USE = new Set(['http', 'https', 'javascript', 'vbscript', 'data', 'blob', 'file', 'filesystem', 'about', 'ws', 'wss'])
const SCHEME = /^([a-z][a-z0-9+.-]*):/i

/** The private-use scheme of a redirect URI (lower case, without the colon), or null. */
export function privateUseScheme(redirectUri: string): string | null {
  const scheme = SCHEME.exec(redirectUri)?.[1]?.toLowerCase()
  if (!scheme || NOT_PRIVATE_USE.has(scheme) || !URL.canParse(redirectUri)) return null
  return scheme
}

/**
 * The CSP source that lets the consent form lead to the app (browsers apply form-action to the
 * redirect after the POST): the scheme alone, e.g. `cursor:`. Safe in a source list, since the
 * scheme is letters, digits, `+`, `.` and `-` only.
 */
export function privateUseFormAction(redirectUri: string): string | null {
  const scheme = privateUseScheme(redirectUri)
  return scheme ? `${scheme}:` : null
}
