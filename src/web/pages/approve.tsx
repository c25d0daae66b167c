// The approval page at a request's action_url: the owner sees exactly what will be booked
// and approves or declines that revision. Assistants cannot reach this: it needs the session.
import type { RequestView, Restaurant } from '../../requests/schemas'
import { ConfirmLink } from '../components/confirm'
import { Alert, CsrfInput } from '../components/form'
import { SpecSummary, StatusBadge } from '../components/spec-summary'
import { PLATFORM_RISK_NOTICE } from './settings'

export interface ApprovePageProps {
  csrfToken: string
  request: RequestView
  venues: Restaurant[]
  /** The revision the link named, when it is not the current one. */
  staleRevision?: number | undefined
  error?: string | undefined
}

function Decision(props: { csrfToken: string; request: RequestView }) {
  const { id, revision } = props.request
  return (
    <div class="decision">
      <form method="post" action={`/requests/${encodeURIComponent(id)}/approve`} class="inline-form">
        <CsrfInput token={props.csrfToken} />
        <input type="hidden" name="revision" value={String(revision)} />
        <button type="submit" class="button">
          Approve
        </button>
      </form>
      <ConfirmLink href={`/requests/${encodeURIComponent(id)}/decline`}>Decline…</ConfirmLink>
    </div>
  )
}

export function ApprovePage(props: ApprovePageProps) {
  const r = props.request
  const waiting = r.status === 'needs_approval'
  return (
    <>
      <h1>{waiting ? 'Approve this booking request?' : 'Booking request'}</h1>
      <p class="lead">
        {r.title ? <>“{r.title}”. </> : null}
        An assistant asked Tablewatch to book a table for you. Nothing is watched or booked until you approve exactly this.
      </p>
      {props.error ? <Alert kind="error">{props.error}</Alert> : null}
      {props.staleRevision !== undefined ? (
        <Alert kind="info" title="This request changed after the link was made.">
          <p>
            The link was for version {props.staleRevision}. This is the current version ({r.revision}): approve it only if it is what you
            want.
          </p>
        </Alert>
      ) : null}
      {!waiting ? (
        <Alert kind="info">
          <p>
            There is nothing to approve now: this request's status is <StatusBadge status={r.status} />.{' '}
            <a href={`/requests/${encodeURIComponent(r.id)}`}>See the request</a>.
          </p>
        </Alert>
      ) : null}
      <section class="card" aria-labelledby="spec-heading">
        <h2 id="spec-heading">What Tablewatch will do</h2>
        <SpecSummary request={r} venues={props.venues} />
        <p class="muted">
          At most one table is booked. Tablewatch charges nothing; a restaurant's cancellation or no-show fee is separate and never above
          your limit. Tablewatch never cancels a reservation: you manage it on the platform.
        </p>
      </section>
      {waiting ? (
        <>
          <Alert kind="warning" title="Please know">
            <p>{PLATFORM_RISK_NOTICE} Booking uses your connected platform account, so you accept that risk by approving.</p>
          </Alert>
          <Decision csrfToken={props.csrfToken} request={r} />
        </>
      ) : null}
    </>
  )
}
