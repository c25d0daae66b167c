// The approval page at a request's action_url: the owner sees exactly what will be booked, what
// changed since the version they saw or approved, the worst-case fee, which assistant asked
// and which platform account books, then approves or declines that revision. Assistants cannot
// reach this: it needs the session. A link to a request that can no longer be approved says
// so plainly and what to do instead.

import { PLATFORM_RISK_NOTICE } from '../../account/pages/settings'
import type { ApprovalContext } from '../../approval/approval-context'
import { ConfirmLink } from '../../html/components/confirm'
import { Alert, CsrfInput } from '../../html/components/form'
import { formatDateTime } from '../../html/format'
import { people } from '../../html/spec-words'
import { dollars } from '../../lib/money'
import type { RequestView } from '../../request-use-cases/schemas'
import type { Restaurant } from '../../venues/schema'
import { SpecChanges, specChanges } from '../components/spec-changes'
import { SpecSummary } from '../components/spec-summary'

export interface ApprovePageProps {
  csrfToken: string
  request: RequestView
  venues: Restaurant[]
  context: ApprovalContext
  /** The revision the link named, when it is not the current one. */
  staleRevision?: number | undefined
  error?: string | undefined
}

/** Approve and Decline, in a bar that stays on screen at every width while the terms scroll by. */
function Decision(props: { csrfToken: string; request: RequestView }) {
  const { id, revision } = props.request
  return (
    <div class="decision sticky-actions">
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

/** A link to a request that is no longer waiting: what happened and what to do now. */
function Closed(props: { request: RequestView }) {
  const r = props.request
  const page = `/requests/${encodeURIComponent(r.id)}`
  const when = formatDateTime(Date.parse(r.updated_at))
  const say: Record<Exclude<RequestView['status'], 'needs_approval'>, { title: string; next: string }> = {
    expired: {
      title: `This approval link has expired: the request ended ${when} without your approval.`,
      next: 'Nothing was watched or booked. If you still want a table, ask your assistant for a new request and approve that one.',
    },
    stopped: {
      title: `This request was declined or stopped ${when}.`,
      next: 'Nothing more will be watched or booked for it. If you still want a table, ask your assistant for a new request.',
    },
    revoked: {
      title: 'This request was revoked: the assistant that asked for it was disconnected.',
      next: 'Nothing will be booked for it. Connect an assistant again and ask it for a new request if you still want a table.',
    },
    active: {
      title: 'You already approved this request.',
      next: 'Tablewatch is watching and books the first table that fits, within your limits. There is nothing more to do.',
    },
    awaiting_verification: {
      title: 'You already approved this request, and a booking is being confirmed with the platform.',
      next: 'Wait for it to show as confirmed on the request page before you count on it.',
    },
    confirmed: {
      title: 'You already approved this request, and the table is booked.',
      next: 'See the reservation, add it to your calendar, or manage it on the platform.',
    },
  }
  if (r.status === 'needs_approval') return null
  const { title, next } = say[r.status]
  return (
    <Alert kind="info" title={title}>
      <p>
        {next} <a href={page}>See the request</a>.
      </p>
    </Alert>
  )
}

function WhoAndHow(props: { request: RequestView; context: ApprovalContext }) {
  const r = props.request
  const worst = r.max_cancellation_fee_per_person * r.party_size
  return (
    <section class="card" aria-labelledby="who-heading">
      <h2 id="who-heading">Who asks, and what it can cost</h2>
      <dl class="facts">
        <dt>Asked by</dt>
        <dd id="asked-by">{props.context.assistant ?? 'An assistant that is no longer connected'}</dd>
        <dt>Books with</dt>
        <dd id="books-with">
          {props.context.platformAccount ? (
            <>Your platform account {props.context.platformAccount}</>
          ) : (
            <>
              No platform account is connected: <a href="/settings#platform">connect one in Settings</a> before a table can be booked.
            </>
          )}
        </dd>
        <dt>Worst case</dt>
        <dd id="worst-case">
          {worst === 0 ? (
            'No fee: only tables without a cancellation or no-show fee are booked.'
          ) : (
            <>
              <strong>{dollars(worst)}</strong> ({dollars(r.max_cancellation_fee_per_person)} × {people(r.party_size)}) if you cancel after
              the free-cancellation deadline or do not show up. Tablewatch itself charges nothing.
            </>
          )}
        </dd>
        <dt>Never booked automatically</dt>
        <dd id="never-booked">
          <MoneyTerms partySize={r.party_size} />
        </dd>
      </dl>
    </section>
  )
}

/**
 * The money terms that stop an automatic booking (src/request-aggregate/booking/booking-decision.ts;
 * docs/decisions/booking.md), in the words the alert uses when one of them does. A party is
 * "large" only by a restaurant's own rule, which the platform states per table: so the sentence
 * says what that rule does, not that this party is one.
 */
function MoneyTerms(props: { partySize: number }) {
  return (
    <>
      <p>Tablewatch does not book a table, and sends you an alert that says why, when:</p>
      <ul>
        <li>booking would charge you anything right away: a deposit, a prepaid meal or ticket, or a booking, service or platform fee;</li>
        <li>the platform does not say what booking costs;</li>
        <li>the restaurant's notes mention a fee, a charge, a deposit, a prepayment or a dollar amount;</li>
        <li>
          the restaurant charges bigger parties a higher cancellation fee, its rule covers a party of {people(props.partySize)}, and that
          fee is above your limit.
        </li>
      </ul>
      <p>
        Some restaurants hold a card for their cancellation fee. Only for such a table does Tablewatch give the platform your card on file,
        or once when a restaurant asks for a card on file and the platform states its cancellation fee within your limit. The restaurant
        charges it only if you cancel late or do not show up.
      </p>
    </>
  )
}

/** Restaurants Tablewatch can alert for but not book (requests/venue-warnings.ts): said before the user approves. */
function VenueWarnings(props: { request: RequestView }) {
  const { warnings } = props.request
  if (warnings.length === 0) return null
  return (
    <Alert
      kind="warning"
      title={warnings.length === 1 ? 'One restaurant cannot be booked by Tablewatch' : 'Some restaurants cannot be booked by Tablewatch'}
    >
      <ul id="venue-warnings">
        {warnings.map((w) => (
          <li>{w.message}</li>
        ))}
      </ul>
    </Alert>
  )
}

export function ApprovePage(props: ApprovePageProps) {
  const r = props.request
  const waiting = r.status === 'needs_approval'
  const earlier = props.context.earlier
  return (
    <>
      <h1>{waiting ? 'Approve this booking request?' : 'Booking request'}</h1>
      <p class="lead">
        {r.title ? <>“{r.title}”. </> : null}
        An assistant asked Tablewatch to book a table for you. Nothing is watched or booked until you approve exactly this.
      </p>
      {props.error ? <Alert kind="error">{props.error}</Alert> : null}
      <Closed request={r} />
      {waiting && props.staleRevision !== undefined ? (
        <Alert kind="info" title="This request changed after the link was made.">
          <p>Your assistant changed it since. Below is the request as it is now: approve it only if it is what you want.</p>
        </Alert>
      ) : null}
      {waiting && earlier ? <SpecChanges changes={specChanges(earlier.spec, r, props.venues)} approved={earlier.approved} /> : null}
      <section class="card" aria-labelledby="spec-heading">
        <h2 id="spec-heading">What Tablewatch will do</h2>
        <SpecSummary request={r} venues={props.venues} />
        <VenueWarnings request={r} />
        <p class="muted">
          At most one table is booked. Tablewatch charges nothing; a restaurant's cancellation or no-show fee is separate and never above
          your limit. Tablewatch never cancels a reservation: you manage it on the platform.
        </p>
      </section>
      {waiting ? (
        <>
          <WhoAndHow request={r} context={props.context} />
          <Alert kind="warning" title="Please know">
            <p>{PLATFORM_RISK_NOTICE} Booking uses your connected platform account, so you accept that risk by approving.</p>
          </Alert>
          <Decision csrfToken={props.csrfToken} request={r} />
        </>
      ) : null}
    </>
  )
}
