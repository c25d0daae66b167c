// The assistants page: personal access tokens (create, see once, list, revoke) and the
// assistants connected through OAuth.
import type { AccessTokenRecord } from '../../auth/pat'
import { SCOPES, type Scope } from '../../core/scopes'
import { ConfirmLink } from '../../html/components/confirm'
import { CopyableSecret } from '../../html/components/copyable-secret'
import { Alert, CsrfInput, Field } from '../../html/components/form'
import { formatDate, formatDateTime } from '../../html/format'
import { ConnectedAssistants, type OAuthGrantSummary } from './connected-assistants'

/** What each permission lets an assistant do, in the words a diner chooses by (the scope names are the API's, on the Developers page). */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'restaurants:read': 'Search for restaurants',
  'requests:read': 'See your requests and how they are going',
  'requests:write': 'Create, change and stop requests (you still approve every booking)',
  'reservations:read': 'See the reservations your requests made',
}

interface NewToken {
  name: string
  token: string
  expiresAt: number
}

export interface AssistantsPageProps {
  csrfToken: string
  now: number
  tokens: AccessTokenRecord[]
  grants: OAuthGrantSummary[]
  newToken?: NewToken | undefined
  notice?: string | undefined
  /** A refused action (a token or connection that is not the user's). */
  error?: string | undefined
  form?: { name: string; scopes: readonly string[]; errors: { name?: string | undefined; scopes?: string | undefined } }
}

function NewTokenPanel(props: { newToken: NewToken }) {
  return (
    <section class="card new-token" aria-labelledby="new-token-heading" data-replace-url="/assistants">
      <h2 id="new-token-heading">Your new token “{props.newToken.name}”</h2>
      <CopyableSecret id="new-token-value" value={props.newToken.token} />
      <Alert kind="warning" title="This is the only time you will see it.">
        <p>
          Put it in your assistant's settings or secret store now. <strong>Never paste it into a chat</strong>: anyone who can read the
          conversation could use it. If it leaks, revoke it below and create a new one.
        </p>
      </Alert>
      <p class="muted">Valid until {formatDate(props.newToken.expiresAt)}.</p>
    </section>
  )
}

function tokenStatus(token: AccessTokenRecord, now: number): 'active' | 'revoked' | 'expired' {
  if (token.revokedAt !== null) return 'revoked'
  return token.expiresAt <= now ? 'expired' : 'active'
}

function TokenItem(props: { token: AccessTokenRecord; now: number; csrfToken: string }) {
  const { token } = props
  const status = tokenStatus(token, props.now)
  return (
    <li class="item">
      <div class="item-head">
        <h3>{token.name}</h3>
        <span class={`status status-${status}`}>{status === 'active' ? 'Active' : status === 'revoked' ? 'Revoked' : 'Expired'}</span>
      </div>
      <dl class="facts">
        <dt>Token</dt>
        <dd>
          <code>{token.hint}</code>
        </dd>
        <dt>May</dt>
        <dd>
          <ul class="plain">
            {token.scopes.map((scope) => (
              <li>{SCOPE_DESCRIPTIONS[scope as Scope] ?? scope}</li>
            ))}
          </ul>
        </dd>
        <dt>Created</dt>
        <dd>{formatDateTime(token.createdAt)}</dd>
        <dt>{status === 'expired' ? 'Expired' : 'Expires'}</dt>
        <dd>{formatDateTime(token.expiresAt)}</dd>
        <dt>Last used</dt>
        <dd>{token.lastUsedAt === null ? 'Never' : formatDateTime(token.lastUsedAt)}</dd>
        {token.revokedAt !== null ? (
          <>
            <dt>Revoked</dt>
            <dd>{formatDateTime(token.revokedAt)}</dd>
          </>
        ) : null}
      </dl>
      {status === 'active' ? (
        <p class="inline-form">
          <ConfirmLink href={`/assistants/tokens/${encodeURIComponent(token.id)}/revoke`} label={`Revoke token ${token.name}`}>
            Revoke…
          </ConfirmLink>
          <span class="hint">Its open requests stop and show “revoked”.</span>
        </p>
      ) : null}
    </li>
  )
}

function CreateTokenForm(props: { csrfToken: string; form: AssistantsPageProps['form'] }) {
  const chosen = new Set(props.form?.scopes ?? SCOPES)
  const errors = props.form?.errors ?? {}
  return (
    <form method="post" action="/assistants/tokens" class="card form" novalidate>
      <h2>Give an assistant a token</h2>
      <p class="muted">A token lets an assistant (a chat app or your own script) make requests for you, for 90 days.</p>
      <CsrfInput token={props.csrfToken} />
      <Field
        label="Name"
        name="name"
        value={props.form?.name ?? ''}
        hint="Something that tells you where it is used, like “Claude on my laptop”."
        required
        maxLength={60}
        error={errors.name}
      />
      <fieldset class={errors.scopes ? 'field has-error' : 'field'}>
        <legend>What it may do</legend>
        {SCOPES.map((scope) => (
          <label class="check">
            <input type="checkbox" name="scopes" value={scope} checked={chosen.has(scope)} />
            <span>{SCOPE_DESCRIPTIONS[scope]}</span>
          </label>
        ))}
        {errors.scopes ? <p class="field-error">{errors.scopes}</p> : null}
      </fieldset>
      <button type="submit" class="button">
        Create token
      </button>
    </form>
  )
}

export function AssistantsPage(props: AssistantsPageProps) {
  const active = props.tokens.filter((t) => tokenStatus(t, props.now) === 'active')
  const inactive = props.tokens.filter((t) => tokenStatus(t, props.now) !== 'active')
  return (
    <>
      <h1>Assistants</h1>
      <p class="lead">
        Let an AI assistant create and follow requests for you. It can never approve a booking: only you can, on this site.
      </p>
      {props.notice ? <Alert kind="success">{props.notice}</Alert> : null}
      {props.error ? <Alert kind="error">{props.error}</Alert> : null}
      {props.newToken ? <NewTokenPanel newToken={props.newToken} /> : null}
      <CreateTokenForm csrfToken={props.csrfToken} form={props.form} />
      <section aria-labelledby="tokens-heading">
        <h2 id="tokens-heading">Your tokens</h2>
        {active.length === 0 ? <p class="empty">No active tokens.</p> : null}
        <ul class="items">
          {active.map((token) => (
            <TokenItem token={token} now={props.now} csrfToken={props.csrfToken} />
          ))}
        </ul>
        {inactive.length > 0 ? (
          <details class="past">
            <summary>Revoked and expired tokens ({inactive.length})</summary>
            <ul class="items">
              {inactive.map((token) => (
                <TokenItem token={token} now={props.now} csrfToken={props.csrfToken} />
              ))}
            </ul>
          </details>
        ) : null}
      </section>
      <ConnectedAssistants grants={props.grants} csrfToken={props.csrfToken} />
    </>
  )
}
