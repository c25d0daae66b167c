// The password-reset pages: ask for a link (the answer is the same for every
// address), "check your inbox", and the link's page, whose form sets the new password (its GET
// changes nothing: mail scanners open links).

import { PASSWORD_MIN_LENGTH } from '../../auth/password'
import { Alert, CsrfInput, Field } from '../../html/components/form'
import { type LocalMail, LocalMailShown } from './sign-up-sent'

export function ForgotPasswordPage(props: { csrfToken: string; email?: string; error?: string | undefined }) {
  return (
    <section class="narrow">
      <h1>Reset your password</h1>
      {props.error ? <Alert kind="error">{props.error}</Alert> : null}
      <p>Type the email of your account. We send it a link to choose a new password.</p>
      <form method="post" action="/password-reset" class="card form">
        <CsrfInput token={props.csrfToken} />
        <Field label="Email" name="email" type="email" value={props.email ?? ''} autocomplete="username" required />
        <button type="submit" class="button">
          Send me a link
        </button>
      </form>
      <p>
        Remembered it? <a href="/signin">Sign in</a>.
      </p>
    </section>
  )
}

/**
 * A reset link that no longer works (used, expired, damaged): what happened, and the next step
 * right there, a new link.
 */
export function NewResetLinkPage(props: { csrfToken: string; message: string }) {
  return (
    <section class="narrow">
      <h1>This link no longer works</h1>
      <p>{props.message}</p>
      <form method="post" action="/password-reset" class="card form">
        <h2>Get a new link</h2>
        <CsrfInput token={props.csrfToken} />
        <Field label="Email" name="email" type="email" autocomplete="username" required />
        <button type="submit" class="button">
          Send me a new link
        </button>
      </form>
      <p>
        Remembered your password? <a href="/signin">Sign in</a>.
      </p>
    </section>
  )
}

export function ResetSentPage(props: { localMail: LocalMail[] | null }) {
  return (
    <section class="narrow">
      <h1>Check your inbox</h1>
      <Alert kind="info">
        If the address you typed has an account, we sent it a link to choose a new password. The link works once, for 30 minutes.
      </Alert>
      <p>
        Nothing arrived after a few minutes? Check the spam folder, or <a href="/password-reset">ask for another link</a>.
      </p>
      {props.localMail ? (
        <LocalMailShown mails={props.localMail} none="No message: the address has no account, or reload this page in a moment." />
      ) : null}
    </section>
  )
}

export interface SetPasswordProps {
  csrfToken: string
  token: string
  email: string
  error?: string | undefined
}

export function SetPasswordPage(props: SetPasswordProps) {
  return (
    <section class="narrow">
      <h1>Choose a new password</h1>
      <p>For {props.email}.</p>
      <form method="post" action="/password-reset/set" class="card form" novalidate>
        <CsrfInput token={props.csrfToken} />
        <input type="hidden" name="t" value={props.token} />
        {/* The account's name, for password managers: they save the new password under it. */}
        <input type="hidden" name="username" value={props.email} autocomplete="username" />
        <Field
          label="New password"
          name="password"
          type="password"
          autocomplete="new-password"
          hint={`At least ${PASSWORD_MIN_LENGTH} characters. Saving it signs your account out on every browser, this one included.`}
          required
          minLength={PASSWORD_MIN_LENGTH}
          error={props.error}
        />
        <button type="submit" class="button">
          Set new password
        </button>
      </form>
    </section>
  )
}
