// The OAuth consent page: which app asks, where its access goes, and what it may do. Every
// string about the client came from the client itself; JSX escapes it.
import type { ConsentDescription } from '@cloudflare/workers-oauth-provider'
import type { ConnectionToContinue, NamedRequest } from '../../access/reconnect'
import { SCOPES, type Scope } from '../../core/scopes'
import { Alert, CsrfInput } from '../../html/components/form'
import { formatCalendarDate, formatDate } from '../../html/format'
import { STATUS_WORDS } from '../../html/spec-words'
import { SCOPE_DESCRIPTIONS } from './assistants'

export interface ConsentPageProps {
  details: ConsentDescription
  /** The private-use scheme (`cursor`) when access goes to a native app's own links, else null. */
  appScheme: string | null
  handle: string
  csrfToken: string
  /** Scopes the client asked for that this service knows; shown ticked. */
  requested: readonly Scope[]
  /** Granted whatever the user ticks (requests:read for an MCP connection). */
  required: readonly Scope[]
  /** Scopes the client asked for that do not exist here; they are never granted. */
  unknown: readonly string[]
  /** The user's earlier connections this client looks like, which it may continue. */
  earlier: readonly ConnectionToContinue[]
}

function ScopeChoice(props: { scope: Scope; checked: boolean; required: boolean }) {
  return (
    <label class="check">
      <input type="checkbox" name="scope" value={props.scope} checked={props.checked || props.required} disabled={props.required} />
      <span>
        <code>{props.scope}</code> <span class="muted">{SCOPE_DESCRIPTIONS[props.scope]}</span>
        {props.required ? <span class="muted"> (always granted: needed for any MCP connection)</span> : null}
      </span>
    </label>
  )
}

function RequestName(props: { request: NamedRequest }) {
  const r = props.request
  const dates = r.dates.map(formatCalendarDate).join(', ')
  return (
    <li>
      {r.title ? <>“{r.title}”, </> : 'A table, '}
      {dates}
      {r.status ? <span class="muted"> ({STATUS_WORDS[r.status]})</span> : null}
    </li>
  )
}

/**
 * A host that registered again looks like the one the user connected before. Continuing is a
 * choice, never the default: the new connection sees the earlier requests only if it is ticked.
 */
function EarlierConnections(props: { clientName: string; earlier: readonly ConnectionToContinue[] }) {
  return (
    <fieldset class="field">
      <legend>You connected an app called {props.clientName} before</legend>
      <p class="muted">
        If this is the same assistant added again, it can carry on with the requests it made. Choosing that ends the earlier connection.
      </p>
      {props.earlier.map((earlier) => (
        <div>
          <label class="check">
            <input type="radio" name="continues" value={earlier.clientId} />
            <span>
              Continue the connection of {formatDate(earlier.connectedAt)}, with its {earlier.requestCount}{' '}
              {earlier.requestCount === 1 ? 'request' : 'requests'}:
            </span>
          </label>
          <ul>
            {earlier.requests.map((request) => (
              <RequestName request={request} />
            ))}
            {earlier.requestCount > earlier.requests.length ? <li>and {earlier.requestCount - earlier.requests.length} more</li> : null}
          </ul>
        </div>
      ))}
      <label class="check">
        <input type="radio" name="continues" value="" checked />
        <span>Start a new connection: it sees none of those requests</span>
      </label>
    </fieldset>
  )
}

export function ConsentPage(props: ConsentPageProps) {
  const { details } = props
  return (
    <section class="narrow" aria-labelledby="consent-heading">
      <h1 id="consent-heading">Allow {details.clientName} to use your Tablewatch account?</h1>
      <p>
        {details.clientDomain ? (
          <>
            Published by <strong>{details.clientDomain}</strong>.
          </>
        ) : (
          'This app registered itself; its name is not verified.'
        )}{' '}
        {props.appScheme ? (
          <>
            Its access will be sent to the app on your device that opens <strong>{props.appScheme}://</strong> links (
            <code>{details.redirectUri}</code>).
          </>
        ) : (
          <>
            Its access will be sent to <strong>{details.redirectHost}</strong>.
          </>
        )}
      </p>
      {props.appScheme ? (
        <Alert kind="warning" title={`This sends access to whichever app handles ${props.appScheme}:// links.`}>
          <p>Continue only if you just started connecting from that app on this device.</p>
        </Alert>
      ) : null}
      {details.redirectIsLoopback ? (
        <Alert kind="warning" title="This sends access to an app on your computer.">
          <p>Continue only if you just started connecting from an app on this computer.</p>
        </Alert>
      ) : null}
      <form method="post" class="card form">
        <CsrfInput token={props.csrfToken} />
        <input type="hidden" name="handle" value={props.handle} />
        <fieldset class="field">
          <legend>It will be able to</legend>
          {SCOPES.map((scope) => (
            <ScopeChoice scope={scope} checked={props.requested.includes(scope)} required={props.required.includes(scope)} />
          ))}
        </fieldset>
        {props.earlier.length > 0 ? <EarlierConnections clientName={details.clientName} earlier={props.earlier} /> : null}
        {props.unknown.length > 0 ? (
          <p class="muted">It also asked for {props.unknown.join(', ')}, which Tablewatch does not have; that is ignored.</p>
        ) : null}
        <p class="muted">
          It can never approve a booking: only you can, on this site. The connection lasts 30 days; you can disconnect it at any time on the{' '}
          <a href="/assistants">Assistants</a> page.
        </p>
        <div class="actions">
          <button type="submit" class="button" name="decision" value="approve">
            Allow
          </button>
          <button type="submit" class="button secondary" name="decision" value="deny">
            Deny
          </button>
        </div>
      </form>
    </section>
  )
}

export function ConsentErrorPage(props: { message: string }) {
  return (
    <section class="narrow">
      <h1>This connection request cannot go on</h1>
      <p>{props.message}</p>
      <p class="muted">Go back to the app that sent you here and start connecting again.</p>
    </section>
  )
}
