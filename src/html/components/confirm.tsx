// The second step of an action that cannot be undone (stop, decline, revoke, disconnect). The
// first step is a plain link to a GET of the action's own path, which shows this page; only
// its CSRF-protected POST acts. No script is involved, so it works everywhere.
import type { Child } from 'hono/jsx'
import { CsrfInput } from './form'

export interface ConfirmStepProps {
  csrfToken: string
  /** The question, as the page's heading: "Stop watching “Birthday dinner”?" */
  question: string
  /** What happens, and what does not. */
  children?: Child
  /** The POST that acts. */
  action: string
  confirmLabel: string
  /** Where "keep it" goes back to. */
  cancelHref: string
  cancelLabel: string
}

export function ConfirmStep(props: ConfirmStepProps) {
  return (
    <section class="confirm-step" aria-labelledby="confirm-heading">
      <h1 id="confirm-heading">{props.question}</h1>
      <div class="card">{props.children}</div>
      <div class="decision">
        <form method="post" action={props.action} class="inline-form">
          <CsrfInput token={props.csrfToken} />
          <button type="submit" class="button danger">
            {props.confirmLabel}
          </button>
        </form>
        <a class="button secondary" href={props.cancelHref}>
          {props.cancelLabel}
        </a>
      </div>
    </section>
  )
}

/** The first step: a link that looks like the button it replaces. */
export function ConfirmLink(props: { href: string; label?: string; children?: Child }) {
  return (
    <a class="button danger" href={props.href} aria-label={props.label}>
      {props.children}
    </a>
  )
}
