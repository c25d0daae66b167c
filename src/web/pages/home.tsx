// The home page: what the service does, in a few lines, and where to go next.
import type { SessionUser } from '../../auth/session'
import { Alert } from '../../html/components/form'
import type { SetupProgress } from '../../setup/setup-progress'
import { SetupChecklist } from '../components/setup-checklist'

export function HomePage(props: { user: SessionUser | null; setup: SetupProgress | null; welcome: boolean }) {
  return (
    <>
      {props.welcome ? <Alert kind="success">Welcome! Your account is ready and you are signed in.</Alert> : null}
      {props.setup ? <SetupChecklist progress={props.setup} /> : null}
      <section class="hero">
        <h1>A table when one opens up</h1>
        <p class="lead">
          Tablewatch watches a restaurant reservation platform for a table that matches what you asked for: the restaurants, the dates, the
          time window and the size of your party.
        </p>
        <ul class="points">
          <li>
            <strong>Alert only:</strong> you hear from us as soon as a matching table appears, and book it yourself.
          </li>
          <li>
            <strong>Book for me:</strong> after you approve the exact request here, Tablewatch books a matching table within the
            cancellation-fee limits you set. No deposits, no prepaid meals, and it never cancels anything.
          </li>
          <li>
            <strong>Your assistant does the asking:</strong> connect an AI assistant with a token or OAuth, and it creates and follows
            requests for you. Only you can approve a booking.
          </li>
        </ul>
        <div class="actions">
          {props.user ? (
            <a class="button" href="/assistants">
              Connect an assistant
            </a>
          ) : (
            <>
              <a class="button" href="/signup">
                Create an account
              </a>
              <a class="button secondary" href="/signin">
                Sign in
              </a>
            </>
          )}
          <a class="button secondary" href="/developers">
            For developers
          </a>
        </div>
      </section>
      <section class="card">
        <h2>Good to know</h2>
        <p>
          Tablewatch is free. Cancellation or no-show fees of a restaurant are separate and never above the limit you approve. The
          reservation platform's terms prohibit automated access and it may deactivate accounts that use such tools; you accept that risk
          when you connect your platform account.
        </p>
      </section>
    </>
  )
}
