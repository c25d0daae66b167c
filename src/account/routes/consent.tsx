// The OAuth authorization endpoint: the library validates the request, the user signs in on
// our pages (and comes back here), sees the consent page, and approves or denies. The
// library's consent helpers keep the request server-side and bind the form to this browser.
import { AuthorizationError, type AuthRequest, authorizationErrorRedirect, CimdFetchError } from '@cloudflare/workers-oauth-provider'
import { type Context, Hono } from 'hono'
import { type ConnectionToContinue, connectionsToContinue, lookOfClient } from '../../access/reconnect'
import { clientDocumentProblem } from '../../auth/client-document-problem'
import { clientIdsProblem } from '../../auth/client-id-document'
import { clientIdsOfAuthorizeRequest } from '../../auth/client-ids'
import { displayName, plainOrigin } from '../../auth/client-metadata'
import { csrfProtection } from '../../auth/csrf'
import { AUTHORIZE_PATH, GRANT_TTL_SECONDS, MCP_REQUIRED_SCOPE, oauthApi, oauthSetup } from '../../auth/oauth'
import type { GrantMetadata } from '../../auth/oauth-grants'
import type { OAuthProps } from '../../auth/oauth-props'
import { privateUseFormAction, privateUseScheme } from '../../auth/private-use-redirect'
import { sessionUser } from '../../auth/session'
import { isScope, SCOPES, type Scope } from '../../core/scopes'
import { csrfRefused } from '../../html/fallbacks'
import { readableForms } from '../../html/form-body'
import { renderPage, type WebEnv } from '../../html/render'
import { pageCspAllowingFormAction } from '../../http/security-headers'
import { withoutControlCharacters } from '../../lib/text'
import { depsOf } from '../../runtime/deps'
import { refuseOverlongConsentIdentifiers } from '../overlong-identifiers'
import { ConsentErrorPage, ConsentPage } from '../pages/consent'

const PKCE_REQUIRED = 'PKCE is required: send code_challenge with code_challenge_method=S256.'

/**
 * Standard scopes a client may add that Tablewatch honours without a choice: refresh tokens are
 * always issued (`offline_access`), so asking for one neither limits nor widens the connection.
 */
const IMPLIED_SCOPES = new Set(['offline_access'])

/**
 * What the consent page offers ticked: the Tablewatch scopes the client asked for, or all four
 * when it asked for none of them (no `scope`, an empty one, or only `offline_access`: the same
 * request, so the same offer); the user may untick any of them.
 */
function offeredScopes(request: AuthRequest): Scope[] {
  const asked = request.scope.filter(isScope)
  return asked.length > 0 ? asked : [...SCOPES]
}

/** What the client asked for that Tablewatch does not have (the page says it is ignored). */
function unknownScopes(request: AuthRequest): string[] {
  return request.scope.filter((s) => !isScope(s) && !IMPLIED_SCOPES.has(s)).map(withoutControlCharacters)
}

/** Scopes granted whatever the user ticks: an MCP connection always needs requests:read. */
function requiredScopes(c: Context<WebEnv>, request: AuthRequest): Scope[] {
  return request.resource === oauthSetup(c.env).mcpResource ? [MCP_REQUIRED_SCOPE] : []
}

/**
 * The origin the consent form may lead to (browsers apply form-action to the redirect after the
 * POST): a validated plain origin, or a native app's private-use scheme (`cursor:`); anything
 * else (an http(s) URI registered before registration checked it) is refused.
 */
function formActionOrigin(redirectUri: string): string {
  const origin = plainOrigin(redirectUri) ?? privateUseFormAction(redirectUri)
  if (!origin) throw new AuthorizationError('invalid_request', { description: "The app's redirect address cannot be used." })
  return origin
}

/** The page's CSP (ours, plus the redirect origin) and the library's consent headers. */
function setPageHeaders(c: Context<WebEnv>, formAction: string, extra: Headers): void {
  c.header('Content-Security-Policy', pageCspAllowingFormAction(formAction))
  extra.forEach((value, name) => {
    if (name.toLowerCase() !== 'content-security-policy') c.header(name, value, { append: name.toLowerCase() === 'set-cookie' })
  })
}

/** Errors the user (not a bug) caused: redirect back only when the library says it is safe. */
function refusal(c: Context<WebEnv>, err: unknown): Response | Promise<Response> {
  if (err instanceof AuthorizationError && err.redirectTo) return c.redirect(err.redirectTo, 302)
  if (err instanceof AuthorizationError || err instanceof CimdFetchError) {
    const message = err instanceof AuthorizationError ? err.description : clientDocumentProblem(err.detail)
    c.header('Cache-Control', 'no-store')
    return renderPage(c, 'Connection refused', <ConsentErrorPage message={message} />, 400)
  }
  throw err
}

/**
 * The user's earlier connections that this request's client looks like (a host that registered
 * again), which the page offers to continue (src/access/reconnect.ts).
 */
async function continuable(c: Context<WebEnv>, userId: string, request: AuthRequest): Promise<ConnectionToContinue[]> {
  const look = await lookOfClient(c.env, request.clientId)
  const resource = request.resource ?? oauthSetup(c.env).mcpResource
  if (!look) return []
  return connectionsToContinue(depsOf(c.env), userId, look, resource)
}

/**
 * The earlier client whose connection the user chose to continue, or null for a new connection.
 * The form's value is checked against what the page may offer this user, so nothing else can be named.
 */
async function chosenContinuation(c: Context<WebEnv>, userId: string, request: AuthRequest, chosen: unknown): Promise<string | null> {
  if (typeof chosen !== 'string' || chosen === '') return null
  const offered = await continuable(c, userId, request)
  if (!offered.some((earlier) => earlier.clientId === chosen)) {
    throw new AuthorizationError('invalid_request', { description: 'That earlier connection cannot be continued. Connect again.' })
  }
  return chosen
}

async function showConsent(c: Context<WebEnv>): Promise<Response> {
  const oauth = oauthApi(c.env)
  try {
    // Before the library fetches a metadata document: never from an address that is not public.
    const addressProblem = clientIdsProblem(c.env, clientIdsOfAuthorizeRequest(new URL(c.req.url)))
    if (addressProblem) throw new AuthorizationError('unauthorized_client', { description: addressProblem })
    const request = await oauth.parseAuthRequest(c.req.raw)
    if (!request.codeChallenge || request.codeChallengeMethod !== 'S256') {
      return c.redirect(authorizationErrorRedirect(request, 'invalid_request', PKCE_REQUIRED), 302)
    }
    const user = c.get('user')
    if (!user) {
      const url = new URL(c.req.url)
      return c.redirect(`/signin?next=${encodeURIComponent(url.pathname + url.search)}`, 303)
    }
    const described = await oauth.describeConsent(request)
    const details = { ...described, clientName: displayName(described.clientName) || described.clientId }
    const appScheme = privateUseScheme(request.redirectUri)
    const formAction = formActionOrigin(request.redirectUri)
    const consent = await oauth.beginConsent(request)
    setPageHeaders(c, formAction, consent.headers)
    const page = (
      <ConsentPage
        details={details}
        appScheme={appScheme}
        handle={consent.handle}
        csrfToken={c.get('csrfToken')}
        requested={offeredScopes(request)}
        required={requiredScopes(c, request)}
        unknown={unknownScopes(request)}
        earlier={await continuable(c, user.id, request)}
      />
    )
    return renderPage(c, 'Connect an assistant', page)
  } catch (err) {
    return refusal(c, err)
  }
}

async function decide(c: Context<WebEnv>): Promise<Response> {
  const oauth = oauthApi(c.env)
  const form = await c.req.parseBody({ all: true })
  const handle = typeof form.handle === 'string' ? form.handle : ''
  try {
    if (form.decision !== 'approve') {
      const denied = await oauth.denyConsent(c.req.raw, handle)
      return new Response(null, { status: 302, headers: denied.headers })
    }
    const user = c.get('user')
    if (!user) throw new AuthorizationError('access_denied', { description: 'You were signed out. Sign in and connect again.' })
    const approved = await oauth.approveConsent(c.req.raw, handle)
    // At most what the page offered (what the client asked for): a posted form that ticks more grants none of it.
    const offered = offeredScopes(approved.request)
    const ticked = [form.scope ?? []]
      .flat()
      .filter((s): s is string => typeof s === 'string')
      .filter((s): s is Scope => isScope(s) && offered.includes(s))
    const scope = [...new Set([...requiredScopes(c, approved.request), ...ticked])]
    const described = await oauth.describeConsent(approved.request)
    const clientName = displayName(described.clientName) || described.clientId
    const continuesClientId = await chosenContinuation(c, user.id, approved.request, form.continues)
    const { redirectTo } = await oauth.completeAuthorization({
      request: approved.request,
      userId: user.id,
      metadata: { clientName } satisfies GrantMetadata,
      scope,
      props: {
        userId: user.id,
        grantExpiresAt: Date.now() + GRANT_TTL_SECONDS * 1000,
        ...(continuesClientId ? { continuesClientId } : {}),
      } satisfies OAuthProps,
      // One connection, many grants (src/auth/oauth-connection.ts): authorizing the same client
      // again, from another device or after a reinstall, never ends the earlier grants.
      revokeExistingGrants: false,
    })
    approved.headers.set('Location', redirectTo)
    return new Response(null, { status: 302, headers: approved.headers })
  } catch (err) {
    return refusal(c, err)
  }
}

export const consentRoutes = new Hono<WebEnv>()
consentRoutes.use(AUTHORIZE_PATH, sessionUser())
consentRoutes.use(AUTHORIZE_PATH, csrfProtection({ onRefused: csrfRefused }))
consentRoutes.use(AUTHORIZE_PATH, readableForms())
consentRoutes.use(AUTHORIZE_PATH, refuseOverlongConsentIdentifiers())
consentRoutes.get(AUTHORIZE_PATH, showConsent)
consentRoutes.post(AUTHORIZE_PATH, decide)
