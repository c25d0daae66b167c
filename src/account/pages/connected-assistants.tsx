// OAuth-connected assistants (MCP hosts). The OAuth work supplies the grants and the revoke
// route (`POST /assistants/grants/:id/revoke`); until then the list is empty.
import { ConfirmLink } from '../../html/components/confirm'
import { formatDateTime } from '../../html/format'

export interface OAuthGrantSummary {
  id: string
  clientName: string
  scopes: string[]
  grantedAt: number
  expiresAt: number
}

export function ConnectedAssistants(props: { grants: OAuthGrantSummary[]; csrfToken: string }) {
  return (
    <section id="connected-assistants" aria-labelledby="connected-heading">
      <h2 id="connected-heading">Connected assistants</h2>
      <p class="muted">Assistants you signed in to through OAuth, such as an MCP host.</p>
      {props.grants.length === 0 ? (
        <p class="empty">No connected assistants.</p>
      ) : (
        <ul class="items">
          {props.grants.map((grant) => (
            <li class="item">
              <div class="item-head">
                <h3>{grant.clientName}</h3>
              </div>
              <dl class="facts">
                <dt>Scopes</dt>
                <dd>{grant.scopes.join(', ')}</dd>
                <dt>Granted</dt>
                <dd>{formatDateTime(grant.grantedAt)}</dd>
                <dt>Expires</dt>
                <dd>{formatDateTime(grant.expiresAt)}</dd>
              </dl>
              <ConfirmLink href={`/assistants/grants/${encodeURIComponent(grant.id)}/revoke`} label={`Disconnect ${grant.clientName}`}>
                Disconnect…
              </ConfirmLink>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
