// Sign-in and sign-up forms. Errors never say whether an email has an account.
import { PASSWORD_MIN_LENGTH } from '../../auth/password'
import { Alert, CsrfInput, Field } from '../../html/components/form'

export interface SignInProps {
  csrfToken: string
  next: string
  email?: string
  error?: string | undefined
  notice?: string | undefined
  /** Why sign-in is asked for, from the page it returns to (src/diner-sign-in/sign-in-reason.ts). */
  reason?: string | undefined
}

function nextQuery(next: string): string {
  return next === '/' ? '' : `?next=${encodeURIComponent(next)}`
}

export function SignInPage(props: SignInProps) {
  return (
    <section class="narrow">
      <h1>Sign in</h1>
      {props.reason ? <p class="lead">{props.reason}</p> : null}
      {props.notice ? <Alert kind="success">{props.notice}</Alert> : null}
      {props.error ? <Alert kind="error">{props.error}</Alert> : null}
      <form method="post" action={`/signin${nextQuery(props.next)}`} class="card form">
        <CsrfInput token={props.csrfToken} />
        <Field label="Email" name="email" type="email" value={props.email ?? ''} autocomplete="username" required />
        <Field label="Password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit" class="button">
          Sign in
        </button>
      </form>
      <p>
        <a href="/password-reset">Forgot password?</a>
      </p>
      <p>
        No account yet? <a href={`/signup${nextQuery(props.next)}`}>Create one</a>.
      </p>
    </section>
  )
}

export interface SignUpProps {
  csrfToken: string
  next: string
  email?: string
  /** A refusal of the whole form (too many sign-ups), shown above it. */
  error?: string | undefined
  errors?: { email?: string | undefined; password?: string | undefined }
}

export function SignUpPage(props: SignUpProps) {
  return (
    <section class="narrow">
      <h1>Create your account</h1>
      {props.error ? <Alert kind="error">{props.error}</Alert> : null}
      <form method="post" action={`/signup${nextQuery(props.next)}`} class="card form" novalidate>
        <CsrfInput token={props.csrfToken} />
        <Field
          label="Email"
          name="email"
          type="email"
          value={props.email ?? ''}
          autocomplete="username"
          required
          error={props.errors?.email}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autocomplete="new-password"
          hint={`At least ${PASSWORD_MIN_LENGTH} characters. A passphrase of a few words works well.`}
          required
          minLength={PASSWORD_MIN_LENGTH}
          error={props.errors?.password}
        />
        <button type="submit" class="button">
          Create account
        </button>
      </form>
      <p>
        Already have an account? <a href={`/signin${nextQuery(props.next)}`}>Sign in</a>.
      </p>
    </section>
  )
}
