// The steps of a platform sign-in by code, after "Text me a code" on Settings: the code (with the
// risk accepted), then, if the platform asks, the account's email. Each is a page of its own, the
// sign-in itself kept server-side (nothing of it in the form but the CSRF token).
import type { SignInVia } from '../../executors/pending-sign-in'
import type { SignInWords } from '../../executors/sign-in-words'
import { Alert, CsrfInput, Field } from '../../html/components/form'
import { RiskAcceptance, SignInProblem } from './settings-platform'

export interface CodeStepProps {
  csrfToken: string
  numberHint: string
  via: SignInVia
  problem?: { words: SignInWords } | undefined
  errors?: { code?: string | undefined; acceptRisk?: string | undefined; email?: string | undefined }
}

function StartOver(props: { csrfToken: string }) {
  return (
    <form method="post" action="/settings/platform/code/cancel" class="inline-form">
      <CsrfInput token={props.csrfToken} />
      <button type="submit" class="button secondary">
        Start over
      </button>
      <span class="hint">Ask for a new code, use another number, or sign in with a password.</span>
    </form>
  )
}

export function CodeStepPage(props: CodeStepProps) {
  const errors = props.errors ?? {}
  return (
    <section class="narrow">
      <h1>Type the code</h1>
      {props.problem ? <SignInProblem problem={props.problem} /> : null}
      <p data-testid="code-sent">
        We sent a code by text message to the number ending in {props.numberHint}
        {props.via === 'device' ? ', asked for by your paired computer' : ''}. It works for a few minutes.
      </p>
      <form method="post" action="/settings/platform/code/check" class="form" novalidate>
        <CsrfInput token={props.csrfToken} />
        <Field
          label="Code from the text message"
          name="code"
          inputMode="numeric"
          autocomplete="one-time-code"
          maxLength={12}
          required
          error={errors.code}
        />
        <RiskAcceptance error={errors.acceptRisk} />
        <button type="submit" class="button">
          Connect
        </button>
      </form>
      <StartOver csrfToken={props.csrfToken} />
    </section>
  )
}

export function ChallengeStepPage(props: CodeStepProps) {
  return (
    <section class="narrow">
      <h1>One more step</h1>
      {props.problem ? <SignInProblem problem={props.problem} /> : null}
      <Alert kind="info">
        <p>The platform asks for the email address of this account before it signs you in.</p>
      </Alert>
      <form method="post" action="/settings/platform/code/email" class="form" novalidate>
        <CsrfInput token={props.csrfToken} />
        <Field label="Account email" name="email" type="email" autocomplete="email" required error={props.errors?.email} />
        <button type="submit" class="button">
          Connect
        </button>
      </form>
      <StartOver csrfToken={props.csrfToken} />
    </section>
  )
}
