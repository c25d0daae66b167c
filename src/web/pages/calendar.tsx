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
      <h2 id="feed-heading">Your calendar feed</h2>
      <p>
        <a class="button" href={props.urls.webcal}>
          Subscribe in your calendar app
        </a>
      </p>
      <p>Or add this address as a calendar subscription (“From URL”):</p>
      <CopyableSecret id="feed-url" value={props.urls.https} />
      <Alert kind="warning" title="Keep this address private.">
        <p>Anyone with this address can see your reservations. If it leaks, reset it below: the old address stops working at once.</p>
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
        Your confirmed reservations in your own calendar, each with an alarm a few hours before the free-cancellation deadline when
        cancelling later costs a fee. Each reservation also has an .ics download on its request page.
      </p>
      {props.fresh ? <FeedAddress urls={props.fresh} fresh /> : props.current ? <FeedAddress urls={props.current} fresh={false} /> : null}
      <section class="card" aria-labelledby="feed-manage-heading">
        <h2 id="feed-manage-heading">{exists ? 'Feed address' : 'Make a feed address'}</h2>
        {props.since !== null && !props.fresh ? (
          <p>
            Your feed address was made {formatDateTime(props.since)}.
            {props.current ? null : ' It was made before addresses could be shown again; reset it to get one you can see here.'}
          </p>
        ) : null}
        {!exists ? <p>A private address your calendar app checks for new reservations.</p> : null}
        <form method="post" action="/calendar/feed" class="inline-form">
          <CsrfInput token={props.csrfToken} />
          <button type="submit" class={exists ? 'button secondary' : 'button'}>
            {exists ? 'Reset feed address' : 'Make a feed address'}
          </button>
          {exists ? <span class="hint">The current address stops working.</span> : null}
        </form>
      </section>
    </>
  )
}
