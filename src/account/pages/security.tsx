// Sign-in and security: change the password, sign out everywhere.

import { PASSWORD_MIN_LENGTH } from '../../auth/password'
import { Alert, CsrfInput, Field } from '../../html/components/form'

export interface SecurityPageProps {
  csrfToken: string
  notice?: { kind: 'success' | 'error'; text: string } | undefined
  passwordErrors?: { current?: string | undefined; next?: string | undefined }
}

function PasswordForm(props: SecurityPageProps) {
  const errors = props.passwordErrors ?? {}
  return (
    <section class="card" aria-labelledby="password-heading">
      <h2 id="password-heading">Change your password</h2>
      <form method="post" action="/settings/password" class="form" novalidate>
        <CsrfInput token={props.csrfToken} />
        <Field
          label="Current password"
          name="current_password"
          type="password"
          autocomplete="current-password"
          required
          error={errors.current}
        />
        <Field
          label="New password"
          name="new_password"
          type="password"
          autocomplete="new-password"
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
          required
          minLength={PASSWORD_MIN_LENGTH}
          maxLength={1024}
          error={errors.next}
        />
        <AlsoRevoke />
        <button type="submit" class="button">
          Change password
        </button>
      </form>
      <p class="muted">Changing it signs you out everywhere else. This browser stays signed in.</p>
    </section>
  )
}

/** The "also revoke" checkboxes of both forms, none ticked by default. */
function AlsoRevoke() {
  const choices = [
    ['tokens', 'Tokens you gave assistants'],
    ['grants', 'Connected assistants'],
    ['devices', 'Paired devices'],
    ['calendar', 'Your calendar link'],
  ] as const
  return (
    <fieldset class="also-revoke">
      <legend>Also revoke</legend>
      {choices.map(([value, label]) => (
        <label>
          <input type="checkbox" name="also_revoke" value={value} /> {label}
        </label>
      ))}
    </fieldset>
  )
}

function Sessions(props: { csrfToken: string }) {
  return (
    <section class="card" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Where you are signed in</h2>
      <p>You stay signed in on a browser for up to 14 days, and until a day passes without using Tablewatch there.</p>
      <form method="post" action="/settings/signout-everywhere" class="inline-form">
        <CsrfInput token={props.csrfToken} />
        <AlsoRevoke />
        <button type="submit" class="button danger">
          Sign out everywhere
        </button>
        <span class="hint">Ends every session, this one too. What you tick above ends too; the rest keeps working.</span>
      </form>
    </section>
  )
}

export function SecurityPage(props: SecurityPageProps) {
  return (
    <>
      <h1>Sign-in and security</h1>
      {props.notice ? <Alert kind={props.notice.kind}>{props.notice.text}</Alert> : null}
      <PasswordForm {...props} />
      <Sessions csrfToken={props.csrfToken} />
    </>
  )
}
