// The calendar page: the user's feed of confirmed reservations for a calendar app. Its secret URL
// is shown whenever the page is opened (derived, not stored); resetting ends the old URL.

import { CopyableSecret } from '../../html/components/copyable-secret'
import { Alert, CsrfInput } from '../../html/components/form'
import { formatDateTime } from '../../html/format'
import type { FeedUrls } from '../../reservations/calendar'

export interface CalendarPageProps {
  csrfToken: string
  /** When the current feed URL was made; null when there is none. */
  since: number | null
  /** The URLs, in the answer to making or resetting the feed. */
  fresh?: FeedUrls | undefined
  /** The current feed's URLs, shown again (null for a feed made before they could be). */
  current?: FeedUrls | undefined
}

function FeedAddress(props: { urls: FeedUrls; fresh: boolean }) {
  return (
    <section class="card new-token" aria-labelledby="feed-heading" {...(props.fresh ? { 'data-replace-url': '/calendar' } : {})}>
      <h2 id="feed-heading">Your calendar</h2>
      <p>
        <a class="button" href={props.urls.webcal}>
          Subscribe in your calendar app
        </a>
      </p>
      <p>Or add this link as a calendar subscription (“From URL”):</p>
      <CopyableSecret id="feed-url" value={props.urls.https} />
      <Alert kind="warning" title="Keep this link private.">
        <p>Anyone with this link can see your reservations. If it leaks, make a new one below: the old link stops working at once.</p>
      </Alert>
    </section>
  )
}

export function CalendarPage(props: CalendarPageProps) {
  const exists = props.since !== null || props.fresh !== undefined
  return (
    <>
      <h1>Calendar</h1>
      <p class="lead">
        Your booked tables in your own calendar app, each with a reminder a few hours before the free-cancellation deadline when cancelling
        later costs a fee. You can also add one reservation at a time from its request page.
      </p>
      {props.fresh ? <FeedAddress urls={props.fresh} fresh /> : props.current ? <FeedAddress urls={props.current} fresh={false} /> : null}
      <section class="card" aria-labelledby="feed-manage-heading">
        <h2 id="feed-manage-heading">{exists ? 'Your calendar link' : 'Get a calendar link'}</h2>
        {props.since !== null && !props.fresh ? (
          <p>
            Your calendar link was made {formatDateTime(props.since)}.
            {props.current ? null : ' It was made before links could be shown again; make a new one to see it here.'}
          </p>
        ) : null}
        {!exists ? <p>A private link your calendar app checks for new reservations.</p> : null}
        <form method="post" action="/calendar/feed" class="inline-form">
          <CsrfInput token={props.csrfToken} />
          <button type="submit" class={exists ? 'button secondary' : 'button'}>
            {exists ? 'Make a new calendar link' : 'Get my calendar link'}
          </button>
          {exists ? <span class="hint">The current link stops working.</span> : null}
        </form>
      </section>
    </>
  )
}
