// What a host's developer reads when the service could not use their Client ID Metadata Document:
// one sentence per cause they can act on, on the consent page and at the token endpoint, instead
// of "The app could not be verified" / "Client not found" for all. Built from the library's own
// failure text (CimdFetchError's `detail`, 1.2.3 dist/oauth-provider.js,
// fetchClientIdMetadataDocument and resolveClientIdMetadataDocument) and the outbound guard's
// (src/auth/outbound-guard.ts), but never repeating it: nothing of the document (a `client_id`
// it holds, a secret it should not) is echoed, only the rule it broke.

const CAUSES: [RegExp, string][] = [
  [/Refused to fetch a URL a client named: it must ([^.]*)\./, "The app's client_id URL must $1."],
  [
    /HTTP 3\d\d\b/,
    "The app's metadata document answered with a redirect: serve it at the client_id URL itself (redirects are not followed).",
  ],
  [/HTTP (\d{3})\b/, "The app's metadata document answered HTTP $1: its client_id URL must answer 200 with the document."],
  [/timed out/, "The app's metadata document did not arrive within 10 seconds."],
  [/size limit/, "The app's metadata document is larger than 5 KB."],
  [/not valid JSON|not valid UTF-8|body is empty/, "The app's metadata document is not a JSON object (UTF-8)."],
  [/does not match metadata URL/, "The client_id inside the app's metadata document must be exactly the URL it is served from."],
  [/redirect_uris is required/, "The app's metadata document must list at least one redirect URI (redirect_uris)."],
  [
    /Redirect URI|redirect URI/,
    "A redirect URI in the app's metadata document is not allowed: use https, http on a loopback host, or an app scheme.",
  ],
  [/client_name is required/, "The app's metadata document must have a client_name."],
  [/client secrets|private key material/, "The app's metadata document must not contain a client secret or private key material."],
  [/Client Identifier URL/, "The app's client_id must be an https URL with a path, no fragment, user info or dot segments."],
  [
    /must be included in|jwks/,
    "The app's metadata document's authentication settings (token_endpoint_auth_method, jwks) do not fit together.",
  ],
]

/** The sentence for a metadata document failure; a general one when the cause is not known. */
export function clientDocumentProblem(detail: string): string {
  for (const [pattern, sentence] of CAUSES) {
    const found = pattern.exec(detail)
    if (found) return sentence.replace('$1', found[1] ?? '')
  }
  return "The app's metadata document at its client_id URL could not be fetched or read."
}
