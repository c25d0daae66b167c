// The steps of a platform sign-in by code, after "Text me a code" on Settings: the code (with the
// risk accepted), then, if the platform asks, the account's email. Each is a page of its own, the
// sign-in itself kept server-side (nothing of it in the form but the CSRF token).
import type { Child } from 'hono/jsx'
import type { SignInVia } from '../../executors/platform-sign-in-pending'
import type { SignInWords } from '../../executors/platform-sign-in-words'
import { Alert, CsrfInput, Field } from '../../html/components/form'
import { RiskAcceptance, SignInProblem } from './settings-platform'

export interface CodeStepProps {
  csrfToken: string
  numberHint: string
  via: SignInVia
  problem?: { words: SignInWords } | undefined
  errors?: { code?: string | undefined; acceptRisk?: string | undefined; email?: string | undefined }
}

/**
 * One step's page: its heading, the refusal of the last try if any, what the step says, then its
 * form (the CSRF token, the fields, Connect) and "Start over".
 */
function SignInStep(props: {
  title: string
  csrfToken: string
  problem: CodeStepProps['problem']
  action: string
  intro: Child
  children: Child
}) {
  return (
    <section class="narrow">
      <h1>{props.title}</h1>
      {props.problem ? <SignInProblem problem={props.problem} /> : null}
      {props.intro}
      <form method="post" action={props.action} class="form" novalidate>
        <CsrfInput token={props.csrfToken} />
        {props.children}
        <button type="submit" class="button">
          Connect
        </button>
      </form>
      <form method="post" action="/settings/platform/code/cancel" class="inline-form">
        <CsrfInput token={props.csrfToken} />
        <button type="submit" class="button secondary">
          Start over
        </button>
        <span class="hint">Ask for a new code, use another number, or sign in with a password.</span>
      </form>
    </section>
  )
}

export function CodeStepPage(props: CodeStepProps) {
  const errors = props.errors ?? {}
  return (
    <SignInStep
      title="Type the code"
      csrfToken={props.csrfToken}
      problem={props.problem}
      action="/settings/platform/code/check"
      intro={
        <p data-testid="code-sent">
          We sent a code by text message to the number ending in {props.numberHint}
          {props.via === 'device' ? ', asked for by your paired computer' : ''}. It works for a few minutes.
        </p>
      }
    >
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
    </SignInStep>
  )
}

export function ChallengeStepPage(props: CodeStepProps) {
  return (
    <SignInStep
      title="One more step"
      csrfToken={props.csrfToken}
      problem={props.problem}
      action="/settings/platform/code/email"
      intro={
        <Alert kind="info">
          <p>The platform asks for the email address of this account before it signs you in.</p>
        </Alert>
      }
    >
      <Field label="Account email" name="email" type="email" autocomplete="email" required error={props.errors?.email} />
    </SignInStep>
  )
}
